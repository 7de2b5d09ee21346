-- A held-out set of npm run eval (eval/lettings.jsonl): residential lettings agencies. The
-- questions are typed the way users type them into a chat box, and were written by someone who
-- had not seen the builtin engine; the set is never used for tuning. Two agencies (tenants 1 and
-- 2) share one schema: every table except agencies carries agency_id, and agencies is filtered on
-- its id. The rows are deterministic (generate_series and arithmetic on the row number, no
-- random()), with dates spread over 2023-2025, so the gold SQL always reads the same answers.
CREATE TABLE agencies (
  id integer PRIMARY KEY,
  name text NOT NULL,
  city text NOT NULL
);
CREATE TABLE agents (
  id integer PRIMARY KEY,
  agency_id integer NOT NULL REFERENCES agencies (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  hired_on date NOT NULL,
  is_active boolean NOT NULL,
  commission_rate numeric(4, 2) NOT NULL
);
CREATE TABLE landlords (
  id integer PRIMARY KEY,
  agency_id integer NOT NULL REFERENCES agencies (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  joined_on date NOT NULL
);
CREATE TABLE properties (
  id integer PRIMARY KEY,
  agency_id integer NOT NULL REFERENCES agencies (id),
  landlord_id integer NOT NULL REFERENCES landlords (id),
  agent_id integer NOT NULL REFERENCES agents (id),
  address text NOT NULL,
  city text NOT NULL,
  property_type text NOT NULL,
  bedrooms integer NOT NULL,
  bathrooms integer NOT NULL,
  monthly_rent numeric(8, 2) NOT NULL,
  furnished boolean NOT NULL,
  pets_allowed boolean NOT NULL,
  epc_rating text,
  listed_on date NOT NULL
);
CREATE TABLE tenants (
  id integer PRIMARY KEY,
  agency_id integer NOT NULL REFERENCES agencies (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  moved_in date
);
CREATE TABLE leases (
  id integer PRIMARY KEY,
  agency_id integer NOT NULL REFERENCES agencies (id),
  property_id integer NOT NULL REFERENCES properties (id),
  tenant_id integer NOT NULL REFERENCES tenants (id),
  start_date date NOT NULL,
  end_date date NOT NULL,
  monthly_rent numeric(8, 2) NOT NULL,
  status text NOT NULL
);
CREATE TABLE rent_payments (
  id integer PRIMARY KEY,
  agency_id integer NOT NULL REFERENCES agencies (id),
  lease_id integer NOT NULL REFERENCES leases (id),
  amount numeric(8, 2) NOT NULL,
  paid_on date NOT NULL,
  method text NOT NULL,
  is_late boolean NOT NULL
);
CREATE TABLE maintenance_requests (
  id integer PRIMARY KEY,
  agency_id integer NOT NULL REFERENCES agencies (id),
  property_id integer NOT NULL REFERENCES properties (id),
  reported_on date NOT NULL,
  category text NOT NULL,
  priority text NOT NULL,
  status text NOT NULL,
  resolved_on date,
  cost numeric(8, 2)
);
COMMENT ON COLUMN agents.commission_rate IS 'Percentage of the monthly rent the agent earns on the properties they manage, e.g. 8.50';
COMMENT ON COLUMN agents.is_active IS 'False once the agent has left the agency';
COMMENT ON COLUMN properties.agent_id IS 'The agent who manages the property';
COMMENT ON COLUMN properties.monthly_rent IS 'Advertised rent per calendar month, in pounds';
COMMENT ON COLUMN properties.epc_rating IS 'Energy Performance Certificate band, A (best) to G; NULL when no certificate is on file';
COMMENT ON COLUMN properties.property_type IS 'flat, house, studio or maisonette';
COMMENT ON COLUMN tenants.moved_in IS 'Start date of the tenant''s first lease; NULL for applicants who never signed one';
COMMENT ON COLUMN leases.status IS 'active (still running), ended (ran to its end date) or terminated (ended early)';
COMMENT ON COLUMN leases.monthly_rent IS 'Rent agreed in the lease, per calendar month';
COMMENT ON COLUMN rent_payments.is_late IS 'True when the payment arrived after the due date';
COMMENT ON COLUMN rent_payments.method IS 'bank_transfer, standing_order, card or cash';
COMMENT ON COLUMN maintenance_requests.status IS 'open, in_progress or resolved';
COMMENT ON COLUMN maintenance_requests.cost IS 'Contractor cost in pounds; NULL while unresolved or when nothing was charged';

INSERT INTO agencies (id, name, city) VALUES
(1, 'Harbourside Lettings', 'Bristol'),
(2, 'Northgate Homes', 'Leeds');

-- Eight agents per agency.
INSERT INTO agents (id, agency_id, first_name, last_name, email, hired_on, is_active, commission_rate)
SELECT i, 1 + (i - 1) / 8, n.fn, n.ln,
  lower(n.fn) || '.' || lower(n.ln) || CASE WHEN i <= 8 THEN '@harbourside-lettings.co.uk' ELSE '@northgatehomes.co.uk' END,
  DATE '2016-03-01' + (i * 397) % 3500, i % 5 <> 0,
  6 + (i * 3) % 7 + ((i * 25) % 100) / 100.0
FROM generate_series(1, 16) AS i,
LATERAL (SELECT
  (ARRAY['Sophie', 'James', 'Priya', 'Tom', 'Hannah', 'Omar', 'Grace', 'Daniel', 'Chloe', 'Ravi', 'Lucy', 'Ben'])[1 + (i * 5) % 12] AS fn,
  (ARRAY['Walsh', 'Patel', 'Hughes', 'Morgan', 'Khan', 'Bennett', 'Carter', 'Fletcher', 'Shaw', 'Ahmed', 'Ellis', 'Price', 'Lloyd'])[1 + (i * 7) % 13] AS ln) AS n;

-- Twenty landlords per agency.
INSERT INTO landlords (id, agency_id, first_name, last_name, email, phone, joined_on)
SELECT i, 1 + (i - 1) / 20, n.fn, n.ln,
  lower(n.fn) || '.' || lower(n.ln) || (ARRAY['@gmail.com', '@outlook.com', '@btinternet.com', '@yahoo.co.uk'])[1 + i % 4],
  CASE WHEN i % 6 = 0 THEN NULL ELSE '07' || (700000000 + (i * 48271) % 299999999)::text END,
  DATE '2018-01-01' + (i * 173) % 2500
FROM generate_series(1, 40) AS i,
LATERAL (SELECT
  (ARRAY['Margaret', 'David', 'Helen', 'Richard', 'Susan', 'Peter', 'Anita', 'Graham', 'Julie', 'Mark', 'Fiona', 'Stephen', 'Karen', 'Neil', 'Ruth', 'Alan', 'Deepa'])[1 + (i * 11) % 17] AS fn,
  (ARRAY['Thompson', 'Roberts', 'Evans', 'Wright', 'Green', 'Hall', 'Wood', 'Clarke', 'Jackson', 'Turner', 'Hill', 'Cooper', 'Ward', 'Harrison', 'Mitchell', 'Singh', 'Baker', 'Young', 'Allen'])[1 + (i * 13) % 19] AS ln) AS n;

-- Sixty properties per agency.
INSERT INTO properties (id, agency_id, landlord_id, agent_id, address, city, property_type, bedrooms, bathrooms,
  monthly_rent, furnished, pets_allowed, epc_rating, listed_on)
SELECT i, a, (a - 1) * 20 + CASE WHEN j % 4 = 0 THEN (ARRAY[2, 2, 3, 2, 5, 3, 2, 1, 2, 3, 5, 2, 3, 2, 1])[j / 4] ELSE 1 + (j * 7) % 20 END,
  (a - 1) * 8 + 1 + ((j * 5 + j / 9) % 11) % 8,
  (3 + (i * 37) % 180)::text || ' ' || (ARRAY['Church Road', 'Victoria Street', 'Park Avenue', 'Mill Lane', 'Station Road', 'Queens Road', 'Kingsway', 'Elm Grove', 'High Street', 'Orchard Close', 'Castle Street', 'Meadow View'])[1 + (i * 5) % 12],
  CASE WHEN a = 1 THEN (ARRAY['Bristol', 'Bristol', 'Bath', 'Bristol', 'Keynsham', 'Bath', 'Bristol', 'Portishead'])[1 + (j * 3) % 8]
       ELSE (ARRAY['Leeds', 'Leeds', 'York', 'Leeds', 'Harrogate', 'Wakefield', 'Leeds', 'York'])[1 + (j * 3) % 8] END,
  t.ptype, t.beds, 1 + (t.beds >= 3 AND i % 2 = 0)::int,
  450 + t.beds * 300 + ((i * 47) % 40) * 10 + CASE WHEN t.ptype = 'house' THEN 150 ELSE 0 END,
  (i * 3) % 5 < 2, (i * 7) % 4 = 0,
  CASE WHEN i % 9 = 0 THEN NULL ELSE (ARRAY['B', 'C', 'C', 'D', 'D', 'C', 'E', 'D', 'A', 'F', 'C'])[1 + (i * 5) % 11] END,
  DATE '2021-01-01' + (i * 211) % 1600
FROM generate_series(1, 120) AS i,
LATERAL (SELECT 1 + (i - 1) / 60 AS a, (i - 1) % 60 + 1 AS j) AS k,
LATERAL (SELECT p.ptype,
  CASE p.ptype WHEN 'studio' THEN 1 WHEN 'flat' THEN 1 + (i % 3) WHEN 'house' THEN 2 + (i % 4) ELSE 2 + (i % 2) END AS beds
  FROM (SELECT (ARRAY['flat', 'flat', 'house', 'studio', 'flat', 'house', 'maisonette', 'flat', 'house', 'studio', 'flat'])[1 + (i * 7) % 11] AS ptype) AS p) AS t;

-- One hundred tenants per agency; moved_in is filled in from their first lease below.
INSERT INTO tenants (id, agency_id, first_name, last_name, email, phone, moved_in)
SELECT i, 1 + (i - 1) / 100, n.fn, n.ln,
  lower(n.fn) || '.' || lower(n.ln) || i::text || (ARRAY['@gmail.com', '@hotmail.co.uk', '@outlook.com', '@icloud.com', '@yahoo.com'])[1 + (i * 3) % 5],
  CASE WHEN i % 8 = 3 THEN NULL ELSE '07' || (400000000 + (i * 104729 * 31) % 599999999)::text END,
  NULL
FROM generate_series(1, 200) AS i,
LATERAL (SELECT
  (ARRAY['Emily', 'Jack', 'Aisha', 'Oliver', 'Mia', 'Harry', 'Zara', 'George', 'Ella', 'Noah', 'Isla', 'Leo', 'Amelia', 'Kai', 'Freya', 'Ethan', 'Layla', 'Max', 'Ruby'])[1 + (i * 7) % 19] AS fn,
  (ARRAY['Smith', 'Jones', 'Williams', 'Brown', 'Taylor', 'Davies', 'Wilson', 'Johnson', 'Lewis', 'Walker', 'Robinson', 'White', 'Edwards', 'Martin', 'Hussain', 'Murphy', 'Kelly', 'Scott', 'Reid', 'Nowak', 'Lee', 'Begum', 'Fox'])[1 + (i * 11) % 23] AS ln) AS n;

-- First round of leases: properties 1-55 of each agency, starting during 2023.
INSERT INTO leases (id, agency_id, property_id, tenant_id, start_date, end_date, monthly_rent, status)
SELECT (k.a - 1) * 100 + k.j, k.a, p.id, (k.a - 1) * 100 + k.j, s.start_date,
  CASE WHEN k.j % 8 = 0 THEN (s.start_date + (4 + k.j % 5) * INTERVAL '1 month')::date
       ELSE (s.start_date + (ARRAY[12, 12, 18, 24])[1 + k.j % 4] * INTERVAL '1 month' - INTERVAL '1 day')::date END,
  p.monthly_rent - 25 * (k.j % 3),
  CASE WHEN k.j % 8 = 0 THEN 'terminated' ELSE 'ended' END
FROM generate_series(1, 110) AS i,
LATERAL (SELECT 1 + (i - 1) / 55 AS a, (i - 1) % 55 + 1 AS j) AS k,
LATERAL (SELECT DATE '2023-01-02' + (i * 37) % 300 AS start_date) AS s,
properties AS p
WHERE p.id = (k.a - 1) * 60 + k.j;

-- Second round: properties 1-45 are let again after the first lease; every fifth is a renewal by
-- the same tenant.
INSERT INTO leases (id, agency_id, property_id, tenant_id, start_date, end_date, monthly_rent, status)
SELECT l.id + 55, l.agency_id, l.property_id,
  CASE WHEN (l.id + 55) % 5 = 0 THEN l.tenant_id ELSE l.tenant_id + 55 END,
  s.start_date, e.end_date, p.monthly_rent,
  CASE WHEN (l.id + 55) % 7 = 0 AND s.start_date <= DATE '2025-06-30' THEN 'terminated'
       WHEN e.end_date < DATE '2025-12-31' THEN 'ended' ELSE 'active' END
FROM leases AS l
JOIN properties AS p ON p.id = l.property_id,
LATERAL (SELECT l.end_date + 7 + l.id % 20 AS start_date) AS s,
LATERAL (SELECT CASE WHEN (l.id + 55) % 7 = 0 AND s.start_date <= DATE '2025-06-30'
  THEN (s.start_date + (3 + l.id % 4) * INTERVAL '1 month')::date
  ELSE (s.start_date + (ARRAY[12, 24, 12, 18])[1 + l.id % 4] * INTERVAL '1 month' - INTERVAL '1 day')::date END AS end_date) AS e
WHERE (l.id - 1) % 100 + 1 <= 45;

UPDATE tenants AS t SET moved_in = (SELECT min(l.start_date) FROM leases AS l WHERE l.tenant_id = t.id);

-- Monthly rent payments for every lease, up to its end date or the end of 2025.
INSERT INTO rent_payments (id, agency_id, lease_id, amount, paid_on, method, is_late)
SELECT row_number() OVER (ORDER BY l.id, m.k), l.agency_id, l.id,
  CASE WHEN (l.id * 7 + m.k) % 29 = 0 THEN round(l.monthly_rent / 2, 2) ELSE l.monthly_rent END,
  (l.start_date + m.k * INTERVAL '1 month')::date
    + CASE WHEN (l.id * 3 + m.k) % 11 = 0 THEN 6 + (l.id + m.k) % 19 ELSE (l.id + m.k) % 3 END,
  (ARRAY['standing_order', 'bank_transfer', 'standing_order', 'card', 'bank_transfer', 'standing_order', 'cash'])[1 + (l.id * 5 + m.k * 3) % 7],
  (l.id * 3 + m.k) % 11 = 0
FROM leases AS l,
LATERAL generate_series(0, 40) AS m(k)
WHERE (l.start_date + m.k * INTERVAL '1 month')::date <= least(l.end_date, DATE '2025-12-01');

-- 150 maintenance requests per agency, 2023-2025; properties 51-60 of each agency never had one.
INSERT INTO maintenance_requests (id, agency_id, property_id, reported_on, category, priority, status, resolved_on, cost)
SELECT i, k.a, (k.a - 1) * 60 + CASE WHEN k.j % 6 = 0 THEN (ARRAY[1, 2, 2, 3, 2, 1, 4, 2, 3, 2, 1, 2, 3, 2, 4, 2, 1, 3, 2, 2, 1, 3, 2, 2, 1])[1 + (k.j / 6) % 25] ELSE 1 + (k.j * 7) % 50 END,
  r.reported_on,
  (ARRAY['plumbing', 'heating', 'electrical', 'plumbing', 'appliance', 'damp', 'plumbing', 'pest control', 'heating', 'locks', 'general', 'electrical', 'damp'])[1 + (i * 5) % 13],
  (ARRAY['low', 'medium', 'medium', 'high', 'low', 'urgent', 'medium'])[1 + (i * 3) % 7],
  st.status,
  CASE WHEN st.status = 'resolved' THEN least(r.reported_on + 1 + (i * 3) % 20, DATE '2025-12-31') END,
  CASE WHEN st.status = 'resolved' AND i % 10 <> 0 THEN (45 + (i * 89) % 600 + ((i * 37) % 100) / 100.0) END
FROM generate_series(1, 300) AS i,
LATERAL (SELECT 1 + (i - 1) / 150 AS a, (i - 1) % 150 + 1 AS j) AS k,
LATERAL (SELECT DATE '2023-01-03' + (i * 53) % 1090 AS reported_on) AS r,
LATERAL (SELECT CASE WHEN r.reported_on >= DATE '2025-10-01' THEN (ARRAY['open', 'in_progress', 'resolved'])[1 + i % 3]
  WHEN i % 13 = 0 THEN 'open' WHEN i % 11 = 0 THEN 'in_progress' ELSE 'resolved' END AS status) AS st;
