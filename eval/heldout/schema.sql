-- The held-out schema of npm run eval (eval/run.ts): a small chain of medical clinics, a domain
-- the builtin engine was not written against. Three tenants share one schema: every tenant table
-- carries clinic_id, clinics is filtered on its id, and specialties is shared reference data.
-- The rows are deterministic (generate_series and modular arithmetic, no random()), spread over
-- 2023-2026, so the gold SQL of eval/heldout.jsonl always reads the same answers.
CREATE TABLE specialties (
  id integer PRIMARY KEY,
  name text NOT NULL
);
CREATE TABLE clinics (
  id integer PRIMARY KEY,
  name text NOT NULL,
  city text NOT NULL,
  opened_on date NOT NULL
);
CREATE TABLE departments (
  id integer PRIMARY KEY,
  clinic_id integer NOT NULL REFERENCES clinics (id),
  name text NOT NULL,
  floor integer NOT NULL
);
CREATE TABLE doctors (
  id integer PRIMARY KEY,
  clinic_id integer NOT NULL REFERENCES clinics (id),
  department_id integer NOT NULL REFERENCES departments (id),
  specialty_id integer NOT NULL REFERENCES specialties (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  hired_on date NOT NULL,
  active boolean NOT NULL
);
CREATE TABLE patients (
  id integer PRIMARY KEY,
  clinic_id integer NOT NULL REFERENCES clinics (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  birth_date date NOT NULL,
  sex text NOT NULL,
  city text NOT NULL,
  insurance_type text NOT NULL,
  registered_on date NOT NULL
);
CREATE TABLE appointments (
  id integer PRIMARY KEY,
  clinic_id integer NOT NULL REFERENCES clinics (id),
  patient_id integer NOT NULL REFERENCES patients (id),
  doctor_id integer NOT NULL REFERENCES doctors (id),
  scheduled_at timestamp NOT NULL,
  status text NOT NULL,
  visit_type text NOT NULL,
  fee numeric(8, 2) NOT NULL
);
CREATE TABLE prescriptions (
  id integer PRIMARY KEY,
  clinic_id integer NOT NULL REFERENCES clinics (id),
  appointment_id integer NOT NULL REFERENCES appointments (id),
  medication text NOT NULL,
  dosage_mg integer NOT NULL,
  duration_days integer NOT NULL
);
INSERT INTO specialties (id, name) VALUES
(1, 'Cardiology'), (2, 'Pediatrics'), (3, 'Dermatology'), (4, 'Orthopedics'), (5, 'General Practice'), (6, 'Neurology');
INSERT INTO clinics (id, name, city, opened_on) VALUES
(1, 'Riverside Health', 'Portland', '2015-03-01'),
(2, 'Hilltop Medical', 'Denver', '2018-09-15'),
(3, 'Bayview Clinic', 'San Diego', '2020-01-10');
-- Four departments per clinic.
INSERT INTO departments (id, clinic_id, name, floor)
SELECT i, 1 + (i - 1) / 4, (ARRAY['Outpatient', 'Surgery', 'Emergency', 'Diagnostics'])[1 + (i - 1) % 4], 1 + (i - 1) % 3
FROM generate_series(1, 12) AS i;
-- Ten doctors per clinic.
INSERT INTO doctors (id, clinic_id, department_id, specialty_id, first_name, last_name, hired_on, active)
SELECT i, c, (c - 1) * 4 + 1 + (i * 3) % 4, 1 + (i * 5) % 6,
  (ARRAY['Alice', 'Bruno', 'Chen', 'Dana', 'Emil', 'Farah', 'Goran', 'Hana', 'Ivan', 'Julia', 'Kofi'])[1 + (i * 7) % 11],
  (ARRAY['Adams', 'Baker', 'Costa', 'Diaz', 'Evans', 'Fischer', 'Garcia', 'Huang', 'Ito', 'Jensen', 'Khan', 'Lopez', 'Meyer'])[1 + (i * 5) % 13],
  DATE '2012-01-01' + (i * 173) % 4000, (i % 7) <> 0
FROM generate_series(1, 30) AS i, LATERAL (SELECT 1 + (i - 1) / 10 AS c) AS t;
-- 120 patients per clinic.
INSERT INTO patients (id, clinic_id, first_name, last_name, birth_date, sex, city, insurance_type, registered_on)
SELECT i, 1 + (i - 1) / 120,
  (ARRAY['Liam', 'Mia', 'Noah', 'Olivia', 'Paul', 'Quinn', 'Rosa', 'Sam', 'Tara', 'Uma', 'Victor', 'Wendy', 'Xavier', 'Yara', 'Zoe', 'Aaron', 'Bella'])[1 + (i * 11) % 17],
  (ARRAY['Moore', 'Nolan', 'Ortiz', 'Park', 'Quade', 'Reyes', 'Smith', 'Turner', 'Usman', 'Vega', 'White', 'Young', 'Zhang', 'Brown', 'Clark', 'Davis', 'Ellis', 'Foster', 'Gray'])[1 + (i * 13) % 19],
  DATE '1940-01-01' + (i * 2957) % 29000,
  (ARRAY['female', 'male'])[1 + i % 2],
  (ARRAY['Portland', 'Salem', 'Eugene', 'Denver', 'Boulder', 'San Diego', 'La Jolla'])[1 + (i * 3) % 7],
  (ARRAY['private', 'public', 'public', 'self-pay', 'private', 'public'])[1 + (i * 7) % 6],
  DATE '2023-01-01' + (i * 37) % 1200
FROM generate_series(1, 360) AS i;
-- 300 appointments per clinic, 2023-01-01 to 2026-06-30.
INSERT INTO appointments (id, clinic_id, patient_id, doctor_id, scheduled_at, status, visit_type, fee)
SELECT i, c, (c - 1) * 120 + 1 + (i * 17) % 120, (c - 1) * 10 + 1 + (i * 7) % 10,
  TIMESTAMP '2023-01-01 08:00' + ((i * 389) % 1276) * INTERVAL '1 day' + ((i * 5) % 9) * INTERVAL '1 hour',
  (ARRAY['completed', 'completed', 'completed', 'completed', 'cancelled', 'no-show', 'completed', 'scheduled', 'completed', 'completed'])[1 + (i * 3) % 10],
  (ARRAY['checkup', 'follow-up', 'consultation', 'emergency', 'checkup', 'vaccination'])[1 + (i * 5) % 6],
  (40 + (i * 13) % 160)::numeric + ((i * 7) % 100) / 100.0
FROM generate_series(1, 900) AS i, LATERAL (SELECT 1 + (i - 1) / 300 AS c) AS t;
-- Prescriptions for about half the completed appointments.
INSERT INTO prescriptions (id, clinic_id, appointment_id, medication, dosage_mg, duration_days)
SELECT row_number() OVER (ORDER BY a.id), a.clinic_id, a.id,
  (ARRAY['Amoxicillin', 'Ibuprofen', 'Lisinopril', 'Metformin', 'Atorvastatin', 'Cetirizine', 'Omeprazole'])[1 + (a.id * 3) % 7],
  (ARRAY[50, 100, 200, 250, 500])[1 + a.id % 5],
  (ARRAY[5, 7, 10, 14, 30])[1 + (a.id * 2) % 5]
FROM appointments AS a
WHERE a.status = 'completed' AND a.id % 2 = 0;
