-- A held-out schema of `npm run eval` (eval/fitness.jsonl): a chain of fitness studios, written
-- for issue 15 before the builtin engine was tuned on anything, and never used for tuning. Two
-- tenants share one schema: every tenant table carries company_id, companies is filtered on its
-- id, and class_types is shared reference data (the row policy is in eval/run.ts). Some columns
-- carry COMMENT ON descriptions, as a real database might. The rows are generated from the row
-- number only, so every run sees the same data.
CREATE TABLE companies (
  id integer PRIMARY KEY,
  name text NOT NULL,
  city text NOT NULL
);
CREATE TABLE class_types (
  id integer PRIMARY KEY,
  name text NOT NULL,
  intensity text NOT NULL
);
CREATE TABLE studios (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  name text NOT NULL,
  city text NOT NULL,
  opened_on date NOT NULL,
  has_sauna boolean NOT NULL
);
CREATE TABLE instructors (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  studio_id integer NOT NULL REFERENCES studios (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  hourly_rate numeric(6, 2) NOT NULL,
  hired_on date NOT NULL,
  certification text NOT NULL,
  is_active boolean NOT NULL
);
CREATE TABLE members (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  home_studio_id integer NOT NULL REFERENCES studios (id),
  full_name text NOT NULL,
  email text NOT NULL,
  plan text NOT NULL,
  signup_date date NOT NULL,
  birth_year integer NOT NULL,
  marketing_opt_in boolean NOT NULL
);
CREATE TABLE class_sessions (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  studio_id integer NOT NULL REFERENCES studios (id),
  instructor_id integer NOT NULL REFERENCES instructors (id),
  class_type_id integer NOT NULL REFERENCES class_types (id),
  starts_at timestamp NOT NULL,
  capacity integer NOT NULL,
  status text NOT NULL
);
CREATE TABLE bookings (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  session_id integer NOT NULL REFERENCES class_sessions (id),
  member_id integer NOT NULL REFERENCES members (id),
  booked_at timestamp NOT NULL,
  attendance_status text NOT NULL
);
CREATE TABLE payments (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  member_id integer NOT NULL REFERENCES members (id),
  amount numeric(8, 2) NOT NULL,
  paid_at timestamp NOT NULL,
  method text NOT NULL,
  refunded boolean NOT NULL
);

COMMENT ON COLUMN members.plan IS 'Membership plan: monthly, annual or drop-in';
COMMENT ON COLUMN members.marketing_opt_in IS 'The member agreed to receive marketing email';
COMMENT ON COLUMN instructors.hourly_rate IS 'Pay per class hour, in USD';
COMMENT ON COLUMN bookings.attendance_status IS 'Whether the member came: attended, no_show or cancelled';
COMMENT ON COLUMN class_sessions.capacity IS 'Maximum number of spots in the class';
COMMENT ON COLUMN payments.method IS 'How the member paid: card, cash or bank transfer';

INSERT INTO companies (id, name, city) VALUES
(1, 'Pulse Fitness', 'Austin'),
(2, 'Northwind Athletics', 'Seattle');

INSERT INTO class_types (id, name, intensity) VALUES
(1, 'Yoga', 'low'),
(2, 'Pilates', 'low'),
(3, 'Spin', 'high'),
(4, 'HIIT', 'high'),
(5, 'Boxing', 'high'),
(6, 'Barre', 'medium'),
(7, 'Strength', 'medium'),
(8, 'Stretch', 'low');

INSERT INTO studios (id, company_id, name, city, opened_on, has_sauna) VALUES
(1, 1, 'Downtown Studio', 'Austin', '2016-03-01', true),
(2, 1, 'Eastside Studio', 'Austin', '2018-07-15', false),
(3, 1, 'Riverside Studio', 'Round Rock', '2020-02-10', true),
(4, 1, 'Lakeway Studio', 'Lakeway', '2022-09-05', false),
(5, 2, 'Capitol Hill Studio', 'Seattle', '2017-01-20', true),
(6, 2, 'Ballard Studio', 'Seattle', '2019-05-11', false),
(7, 2, 'Bellevue Studio', 'Bellevue', '2021-11-01', true);

-- Instructors 1–14 belong to tenant 1, 15–22 to tenant 2; hourly rates are distinct.
INSERT INTO instructors (id, company_id, studio_id, first_name, last_name, hourly_rate, hired_on, certification, is_active)
SELECT i,
  CASE WHEN i <= 14 THEN 1 ELSE 2 END,
  CASE WHEN i <= 14 THEN 1 + i % 4 ELSE 5 + i % 3 END,
  (ARRAY['Ava', 'Bruno', 'Carmen', 'Dev', 'Elena', 'Finn', 'Gia', 'Hank', 'Isla', 'Jon', 'Kemi'])[1 + i % 11],
  (ARRAY['Park', 'Reyes', 'Stone', 'Tran', 'Ueda', 'Vance', 'Wolfe'])[1 + i % 7],
  round((22 + (i * 13) % 37 + i * 0.25)::numeric, 2),
  DATE '2015-06-01' + (i * 173) % 3000,
  (ARRAY['basic', 'advanced', 'master', 'basic'])[1 + i % 4],
  i % 5 <> 0
FROM generate_series(1, 22) AS i;

-- Members 1–150 belong to tenant 1, 151–230 to tenant 2.
INSERT INTO members (id, company_id, home_studio_id, full_name, email, plan, signup_date, birth_year, marketing_opt_in)
SELECT i,
  CASE WHEN i <= 150 THEN 1 ELSE 2 END,
  CASE WHEN i <= 150 THEN (ARRAY[1, 1, 2, 3, 1, 4, 2])[1 + i % 7] ELSE 5 + i % 3 END,
  (ARRAY['Abby', 'Cole', 'Dana', 'Eli', 'Faye', 'Gus', 'Hana', 'Ivan', 'June', 'Kurt', 'Lena', 'Milo', 'Nora'])[1 + i % 13]
    || ' ' ||
  (ARRAY['Alvarez', 'Brooks', 'Chen', 'Dunn', 'Ellis', 'Ford', 'Garcia', 'Hill', 'Ito', 'Jones', 'Khan'])[1 + i % 11],
  'm' || i || '@example.com',
  (ARRAY['monthly', 'monthly', 'annual', 'drop_in', 'monthly', 'annual'])[1 + i % 6],
  DATE '2021-01-04' + (i * 37) % 1600,
  1960 + (i * 7) % 45,
  i % 3 = 0
FROM generate_series(1, 230) AS i;

-- Sessions 1–300 belong to tenant 1, 301–420 to tenant 2.
INSERT INTO class_sessions (id, company_id, studio_id, instructor_id, class_type_id, starts_at, capacity, status)
SELECT i,
  CASE WHEN i <= 300 THEN 1 ELSE 2 END,
  CASE WHEN i <= 300 THEN 1 + i % 4 ELSE 5 + i % 3 END,
  CASE WHEN i <= 300 THEN 1 + (i * 5) % 14 ELSE 15 + i % 8 END,
  1 + (i * 3) % 8,
  TIMESTAMP '2023-01-02 07:00:00' + ((i * 7) % 1000) * INTERVAL '1 day' + (i % 12) * INTERVAL '1 hour',
  10 + (i * 3) % 21,
  CASE WHEN i % 17 = 0 THEN 'cancelled' WHEN i % 11 = 0 THEN 'scheduled' ELSE 'completed' END
FROM generate_series(1, 420) AS i;

-- Instructor 6 takes twelve more sessions of tenant 1, so that "the instructor with the most
-- classes" is unique.
UPDATE class_sessions SET instructor_id = 6 WHERE id IN (3, 17, 45, 59, 87, 101, 129, 143, 171, 185, 213, 227);

-- Bookings 1–1500 belong to tenant 1, 1501–2100 to tenant 2; the first 28 bookings go to members
-- 1–7 in decreasing numbers, so "the members with the most bookings" has no ties at the top.
INSERT INTO bookings (id, company_id, session_id, member_id, booked_at, attendance_status)
SELECT i, org, session, member, s.starts_at - ((i % 9) + 1) * INTERVAL '1 day',
  CASE WHEN i % 9 = 0 THEN 'no_show' WHEN i % 7 = 0 THEN 'cancelled' ELSE 'attended' END
FROM (
  SELECT i,
    CASE WHEN i <= 1500 THEN 1 ELSE 2 END AS org,
    CASE WHEN i <= 1500 THEN 1 + (i * 13) % 300 ELSE 301 + (i * 13) % 120 END AS session,
    CASE
      WHEN i <= 28 THEN 8 - ceil((sqrt(8 * i + 1) - 1) / 2)::integer
      WHEN i <= 1500 THEN 1 + (i * 17) % 150
      ELSE 151 + (i * 17) % 80
    END AS member
  FROM generate_series(1, 2100) AS i
) AS b
JOIN class_sessions s ON s.id = b.session;

-- Payments 1–600 belong to tenant 1, 601–850 to tenant 2; amounts are distinct.
INSERT INTO payments (id, company_id, member_id, amount, paid_at, method, refunded)
SELECT i,
  CASE WHEN i <= 600 THEN 1 ELSE 2 END,
  CASE WHEN i <= 600 THEN 1 + (i * 7) % 150 ELSE 151 + (i * 7) % 80 END,
  round((15 + (i * 29) % 180 + i * 0.01)::numeric, 2),
  TIMESTAMP '2023-01-05 09:30:00' + ((i * 11) % 1000) * INTERVAL '1 day',
  (ARRAY['card', 'card', 'cash', 'bank_transfer', 'card'])[1 + i % 5],
  i % 19 = 0
FROM generate_series(1, 850) AS i;
