-- A development set of `npm run eval` for the builtin engine (eval/vet.jsonl): a chain of
-- veterinary practices, with questions typed the way users type them (filler words, synonyms,
-- values in words, typos, follow-ups). Two tenants share one schema: every tenant table carries
-- practice_id, practices is filtered on its id, and species is shared reference data (the row
-- policy is in eval/sets.ts). Some columns carry COMMENT ON descriptions and the operator's
-- glossary is eval/vet/glossary.json. The rows are generated from the row number only (no
-- random()), with visits and invoices spread over 2023-2025, so every run sees the same data.
CREATE TABLE practices (
  id integer PRIMARY KEY,
  name text NOT NULL,
  city text NOT NULL
);
CREATE TABLE species (
  id integer PRIMARY KEY,
  name text NOT NULL
);
CREATE TABLE owners (
  id integer PRIMARY KEY,
  practice_id integer NOT NULL REFERENCES practices (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  city text NOT NULL,
  joined_on date NOT NULL,
  marketing_opt_in boolean NOT NULL
);
CREATE TABLE pets (
  id integer PRIMARY KEY,
  practice_id integer NOT NULL REFERENCES practices (id),
  owner_id integer NOT NULL REFERENCES owners (id),
  species_id integer NOT NULL REFERENCES species (id),
  name text NOT NULL,
  breed text,
  birth_date date NOT NULL,
  weight_kg numeric(5, 2) NOT NULL,
  is_neutered boolean NOT NULL,
  microchip text
);
CREATE TABLE vets (
  id integer PRIMARY KEY,
  practice_id integer NOT NULL REFERENCES practices (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  specialty text NOT NULL,
  hired_on date NOT NULL,
  is_active boolean NOT NULL
);
CREATE TABLE appointments (
  id integer PRIMARY KEY,
  practice_id integer NOT NULL REFERENCES practices (id),
  pet_id integer NOT NULL REFERENCES pets (id),
  vet_id integer NOT NULL REFERENCES vets (id),
  scheduled_at timestamp NOT NULL,
  reason text NOT NULL,
  status text NOT NULL
);
CREATE TABLE treatments (
  id integer PRIMARY KEY,
  practice_id integer NOT NULL REFERENCES practices (id),
  appointment_id integer NOT NULL REFERENCES appointments (id),
  description text NOT NULL,
  cost numeric(8, 2) NOT NULL
);
CREATE TABLE invoices (
  id integer PRIMARY KEY,
  practice_id integer NOT NULL REFERENCES practices (id),
  owner_id integer NOT NULL REFERENCES owners (id),
  appointment_id integer REFERENCES appointments (id),
  amount numeric(8, 2) NOT NULL,
  issued_on date NOT NULL,
  status text NOT NULL,
  paid_on date
);

COMMENT ON COLUMN owners.marketing_opt_in IS 'The owner agreed to receive reminders and marketing email';
COMMENT ON COLUMN pets.weight_kg IS 'Weight at the last visit, in kilograms';
COMMENT ON COLUMN pets.microchip IS 'Microchip number, empty when the pet is not chipped';
COMMENT ON COLUMN vets.specialty IS 'Area of practice: general practice, surgery, dentistry, exotics or dermatology';
COMMENT ON COLUMN appointments.status IS 'scheduled, completed, cancelled or no_show (the pet did not come)';
COMMENT ON COLUMN treatments.cost IS 'Price charged for the treatment, in USD';
COMMENT ON COLUMN invoices.amount IS 'Invoice total in USD';
COMMENT ON COLUMN invoices.status IS 'paid, unpaid or overdue';
COMMENT ON COLUMN invoices.appointment_id IS 'The visit billed; empty for shop sales (food, flea products)';

INSERT INTO practices (id, name, city) VALUES
(1, 'Maple Grove Veterinary', 'Portland'),
(2, 'Cedar Hills Animal Clinic', 'Beaverton');

INSERT INTO species (id, name) VALUES
(1, 'dog'),
(2, 'cat'),
(3, 'rabbit'),
(4, 'bird'),
(5, 'reptile'),
(6, 'ferret');

-- Owners 1–160 belong to tenant 1, 161–260 to tenant 2; full names are unique (14 × 13 names).
-- Owners 151–160 have no pets, so they never booked.
INSERT INTO owners (id, practice_id, first_name, last_name, email, phone, city, joined_on, marketing_opt_in)
SELECT i,
  CASE WHEN i <= 160 THEN 1 ELSE 2 END,
  f, l,
  lower(f) || '.' || lower(l) || i || '@example.com',
  CASE WHEN i % 9 = 0 THEN NULL ELSE '503-555-' || lpad(((i * 37) % 10000)::text, 4, '0') END,
  (ARRAY['Portland', 'Portland', 'Beaverton', 'Gresham', 'Hillsboro', 'Portland', 'Tigard'])[1 + (i * 3) % 7],
  DATE '2021-02-01' + (i * 41) % 1750,
  i % 3 <> 0
FROM (
  SELECT i,
    (ARRAY['Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Ethan', 'Sophia', 'Mason', 'Isabella', 'Lucas',
           'Mia', 'James', 'Harper', 'Daniel'])[1 + i % 14] AS f,
    (ARRAY['Smith', 'Johnson', 'Nguyen', 'Garcia', 'Brown', 'Patel', 'Miller', 'Davis', 'Lopez',
           'Wilson', 'Kim', 'Clark', 'Turner'])[1 + i % 13] AS l
  FROM generate_series(1, 260) AS i
) AS o;

-- Pets 1–300 belong to tenant 1 (owners 1–150), 301–480 to tenant 2 (owners 161–255); dog
-- weights are distinct within a tenant.
INSERT INTO pets (id, practice_id, owner_id, species_id, name, breed, birth_date, weight_kg, is_neutered, microchip)
SELECT i,
  CASE WHEN i <= 300 THEN 1 ELSE 2 END,
  CASE WHEN i <= 300 THEN 1 + (i * 7) % 150 ELSE 161 + (i * 7) % 95 END,
  sp,
  (ARRAY['Bella', 'Max', 'Luna', 'Charlie', 'Lucy', 'Cooper', 'Daisy', 'Milo', 'Bailey', 'Rocky',
         'Coco', 'Oliver', 'Rosie', 'Teddy', 'Nala', 'Buddy', 'Willow', 'Pepper', 'Ziggy', 'Simba'])[1 + i % 20],
  CASE
    WHEN i % 23 = 0 OR sp = 6 THEN NULL
    WHEN sp = 1 THEN (ARRAY['Labrador Retriever', 'Golden Retriever', 'Beagle', 'French Bulldog',
                            'German Shepherd', 'Dachshund', 'Poodle'])[1 + (i / 14) % 7]
    WHEN sp = 2 THEN (ARRAY['Domestic Shorthair', 'Maine Coon', 'Siamese', 'Persian', 'Ragdoll'])[1 + (i / 14) % 5]
    WHEN sp = 3 THEN (ARRAY['Holland Lop', 'Netherland Dwarf', 'Rex'])[1 + (i / 14) % 3]
    WHEN sp = 4 THEN (ARRAY['Budgerigar', 'Cockatiel', 'African Grey'])[1 + (i / 14) % 3]
    ELSE (ARRAY['Bearded Dragon', 'Leopard Gecko', 'Corn Snake'])[1 + (i / 14) % 3]
  END,
  DATE '2009-06-01' + (i * 53) % 4900,
  round((CASE sp
    WHEN 1 THEN 5 + (i * 11) % 37 + (i % 100) * 0.01
    WHEN 2 THEN 3 + (i * 3) % 5 + (i % 10) * 0.07
    WHEN 3 THEN 1 + (i % 3) * 0.6 + (i % 10) * 0.05
    WHEN 4 THEN 0.04 + (i % 5) * 0.09 + (i % 10) * 0.01
    WHEN 5 THEN 0.2 + (i % 6) * 0.4 + (i % 10) * 0.03
    ELSE 0.8 + (i % 4) * 0.3 + (i % 10) * 0.04
  END)::numeric, 2),
  (i * 7) % 10 < 6,
  CASE WHEN i % 5 = 2 THEN NULL ELSE '98510' || lpad(((i * 7919) % 10000000000)::text, 10, '0') END
FROM (
  SELECT i, (ARRAY[1, 2, 1, 2, 1, 3, 2, 1, 4, 2, 5, 1, 2, 6])[1 + i % 14] AS sp
  FROM generate_series(1, 480) AS i
) AS p;

INSERT INTO vets (id, practice_id, first_name, last_name, specialty, hired_on, is_active) VALUES
(1, 1, 'Sarah', 'Whitfield', 'general practice', '2015-04-01', true),
(2, 1, 'Marcus', 'Oyelaran', 'surgery', '2017-09-15', true),
(3, 1, 'Priya', 'Raman', 'dentistry', '2019-02-01', true),
(4, 1, 'Tom', 'Kowalski', 'general practice', '2012-06-10', false),
(5, 1, 'Elena', 'Marsh', 'exotics', '2020-08-03', true),
(6, 1, 'Jacob', 'Feld', 'dermatology', '2021-03-22', true),
(7, 1, 'Hannah', 'Brooks', 'general practice', '2022-01-10', true),
(8, 1, 'Owen', 'Castillo', 'surgery', '2023-05-15', true),
(9, 1, 'Grace', 'Lindqvist', 'general practice', '2016-11-01', false),
(10, 1, 'Daniel', 'Adeyemi', 'exotics', '2024-02-19', true),
(11, 2, 'Laura', 'Chen', 'general practice', '2014-03-03', true),
(12, 2, 'Ben', 'Hartley', 'surgery', '2018-10-01', true),
(13, 2, 'Nadia', 'Petrova', 'dentistry', '2020-01-13', true),
(14, 2, 'Chris', 'Okafor', 'general practice', '2019-06-24', true),
(15, 2, 'Maya', 'Rios', 'exotics', '2024-04-08', true),
(16, 2, 'Ian', 'Doyle', 'dermatology', '2016-09-12', false);

-- Appointments 1–720 belong to tenant 1 (pets 1–290, so pets 291–300 were never seen),
-- 721–1140 to tenant 2. Everything from November 2025 on is still scheduled.
INSERT INTO appointments (id, practice_id, pet_id, vet_id, scheduled_at, reason, status)
SELECT i,
  CASE WHEN i <= 720 THEN 1 ELSE 2 END,
  CASE WHEN i <= 720 THEN 1 + (i * 11) % 290 ELSE 301 + (i * 11) % 175 END,
  CASE WHEN i <= 720 THEN (ARRAY[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 7, 2])[1 + (i * 3) % 13]
       ELSE (ARRAY[11, 12, 13, 14, 15, 16, 11, 14])[1 + (i * 5) % 8] END,
  at,
  (ARRAY['annual checkup', 'vaccination', 'annual checkup', 'skin irritation', 'vaccination', 'limping',
         'ear infection', 'annual checkup', 'dental cleaning', 'vomiting', 'vaccination', 'nail trim',
         'skin irritation', 'surgery follow-up', 'ear infection', 'weight check', 'nail trim'])[1 + (i * 7) % 17],
  CASE
    WHEN at >= TIMESTAMP '2025-11-01' THEN 'scheduled'
    WHEN i % 11 = 0 THEN 'cancelled'
    WHEN i % 17 = 0 THEN 'no_show'
    ELSE 'completed'
  END
FROM (
  SELECT i,
    TIMESTAMP '2023-01-03 08:00:00' + ((i * 13) % 1090) * INTERVAL '1 day' + (i % 9) * INTERVAL '45 minutes' AS at
  FROM generate_series(1, 1140) AS i
) AS a;

-- Luna (pet 42, a dog of tenant 1) is a regular, so "the pet with the most visits" is unique.
UPDATE appointments SET pet_id = 42 WHERE practice_id = 1 AND id % 47 = 0;

-- No vet sees pets before being hired, and the two vets who left saw nobody in 2025.
UPDATE appointments a SET vet_id = CASE WHEN a.practice_id = 1 THEN 1 ELSE 11 END
FROM vets v WHERE v.id = a.vet_id AND a.scheduled_at < v.hired_on;
UPDATE appointments a SET vet_id = CASE WHEN a.practice_id = 1 THEN 7 ELSE 14 END
FROM vets v WHERE v.id = a.vet_id AND NOT v.is_active AND a.scheduled_at >= TIMESTAMP '2025-01-01';

-- One treatment per completed appointment, a second one for every third appointment.
INSERT INTO treatments (id, practice_id, appointment_id, description, cost)
SELECT row_number() OVER (ORDER BY t.appointment_id, t.n), t.practice_id, t.appointment_id, t.description,
  (CASE t.description
    WHEN 'Wellness exam' THEN 65 WHEN 'Vaccination' THEN 45 WHEN 'Dental scaling' THEN 320
    WHEN 'Skin scraping' THEN 85 WHEN 'X-ray' THEN 180 WHEN 'Blood panel' THEN 140
    WHEN 'Ear cleaning' THEN 55 WHEN 'Wound check' THEN 40 WHEN 'Nail trim' THEN 20
    WHEN 'Weight consultation' THEN 35 WHEN 'Antibiotics' THEN 38 WHEN 'Pain medication' THEN 28
    WHEN 'Flea treatment' THEN 30 ELSE 22
  END + (t.appointment_id * 13) % 25 + (t.appointment_id % 4) * 0.25 + t.n * 0.1)::numeric(8, 2)
FROM (
  SELECT a.id AS appointment_id, a.practice_id, 1 AS n,
    CASE a.reason
      WHEN 'annual checkup' THEN 'Wellness exam' WHEN 'vaccination' THEN 'Vaccination'
      WHEN 'dental cleaning' THEN 'Dental scaling' WHEN 'skin irritation' THEN 'Skin scraping'
      WHEN 'limping' THEN 'X-ray' WHEN 'vomiting' THEN 'Blood panel'
      WHEN 'ear infection' THEN 'Ear cleaning' WHEN 'surgery follow-up' THEN 'Wound check'
      WHEN 'nail trim' THEN 'Nail trim' ELSE 'Weight consultation'
    END AS description
  FROM appointments a WHERE a.status = 'completed'
  UNION ALL
  SELECT a.id, a.practice_id, 2,
    (ARRAY['Antibiotics', 'Pain medication', 'Blood panel', 'Flea treatment', 'Deworming'])[1 + a.id % 5]
  FROM appointments a WHERE a.status = 'completed' AND a.id % 3 = 0
) AS t;

-- One invoice per completed appointment, billed to the pet's owner for the sum of its treatments.
INSERT INTO invoices (id, practice_id, owner_id, appointment_id, amount, issued_on, status, paid_on)
SELECT r, practice_id, owner_id, appointment_id, amount, issued_on,
  CASE
    WHEN issued_on >= DATE '2025-10-01' AND r % 3 = 0 THEN 'unpaid'
    WHEN r % 19 = 0 THEN 'overdue'
    WHEN r % 23 = 0 THEN 'unpaid'
    ELSE 'paid'
  END,
  CASE
    WHEN (issued_on >= DATE '2025-10-01' AND r % 3 = 0) OR r % 19 = 0 OR r % 23 = 0 THEN NULL
    ELSE issued_on + r % 21
  END
FROM (
  SELECT row_number() OVER (ORDER BY a.id)::integer AS r, a.practice_id, p.owner_id, a.id AS appointment_id,
    (SELECT sum(t.cost) FROM treatments t WHERE t.appointment_id = a.id) AS amount,
    a.scheduled_at::date AS issued_on
  FROM appointments a JOIN pets p ON p.id = a.pet_id
  WHERE a.status = 'completed'
) AS i;

-- Shop sales (food, flea products) without an appointment: 5001–5040 for tenant 1, 5041–5065
-- for tenant 2.
INSERT INTO invoices (id, practice_id, owner_id, appointment_id, amount, issued_on, status, paid_on)
SELECT 5000 + i,
  CASE WHEN i <= 40 THEN 1 ELSE 2 END,
  CASE WHEN i <= 40 THEN 1 + (i * 19) % 150 ELSE 161 + (i * 19) % 95 END,
  NULL,
  (24 + (i * 17) % 90 + 0.99)::numeric(8, 2),
  DATE '2023-01-10' + (i * 97) % 1040,
  CASE WHEN i % 8 = 0 THEN 'unpaid' ELSE 'paid' END,
  CASE WHEN i % 8 = 0 THEN NULL ELSE DATE '2023-01-10' + (i * 97) % 1040 END
FROM generate_series(1, 65) AS i;
