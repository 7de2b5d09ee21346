-- A development set of `npm run eval` for the builtin engine (eval/helpdesk.jsonl): a
-- customer-support helpdesk SaaS, with questions typed the way users type them (filler words,
-- synonyms, values in words, typos, follow-ups). Two tenants (workspaces 1 and 2) share one
-- schema: every tenant table carries workspace_id, workspaces is filtered on its id, and
-- priorities is shared reference data (the row policy is in eval/sets.ts). Some columns carry
-- COMMENT ON descriptions and the operator's glossary is eval/helpdesk/glossary.json. The rows
-- are generated from the row number only (no random()), with tickets, replies and invoices
-- spread over 2023-2025, so every run sees the same data.
CREATE TABLE workspaces (
  id integer PRIMARY KEY,
  name text NOT NULL,
  region text NOT NULL
);
CREATE TABLE priorities (
  id integer PRIMARY KEY,
  name text NOT NULL,
  sla_hours integer NOT NULL
);
CREATE TABLE accounts (
  id integer PRIMARY KEY,
  workspace_id integer NOT NULL REFERENCES workspaces (id),
  name text NOT NULL,
  plan text NOT NULL,
  country text NOT NULL,
  created_on date NOT NULL,
  is_churned boolean NOT NULL
);
CREATE TABLE contacts (
  id integer PRIMARY KEY,
  workspace_id integer NOT NULL REFERENCES workspaces (id),
  account_id integer NOT NULL REFERENCES accounts (id),
  full_name text NOT NULL,
  email text NOT NULL,
  phone text,
  is_vip boolean NOT NULL
);
CREATE TABLE agents (
  id integer PRIMARY KEY,
  workspace_id integer NOT NULL REFERENCES workspaces (id),
  full_name text NOT NULL,
  team text NOT NULL,
  hired_on date NOT NULL,
  is_active boolean NOT NULL,
  manager_id integer REFERENCES agents (id)
);
CREATE TABLE tickets (
  id integer PRIMARY KEY,
  workspace_id integer NOT NULL REFERENCES workspaces (id),
  contact_id integer NOT NULL REFERENCES contacts (id),
  assignee_id integer REFERENCES agents (id),
  priority_id integer NOT NULL REFERENCES priorities (id),
  subject text NOT NULL,
  channel text NOT NULL,
  status text NOT NULL,
  opened_at timestamp NOT NULL,
  solved_at timestamp,
  satisfaction_score integer
);
CREATE TABLE ticket_replies (
  id integer PRIMARY KEY,
  workspace_id integer NOT NULL REFERENCES workspaces (id),
  ticket_id integer NOT NULL REFERENCES tickets (id),
  agent_id integer REFERENCES agents (id),
  sent_at timestamp NOT NULL,
  is_public boolean NOT NULL,
  word_count integer NOT NULL
);
CREATE TABLE invoices (
  id integer PRIMARY KEY,
  workspace_id integer NOT NULL REFERENCES workspaces (id),
  account_id integer NOT NULL REFERENCES accounts (id),
  amount numeric(10, 2) NOT NULL,
  issued_on date NOT NULL,
  status text NOT NULL
);

COMMENT ON COLUMN priorities.sla_hours IS 'Hours within which the first response is promised';
COMMENT ON COLUMN accounts.plan IS 'Subscription plan: free, team or enterprise';
COMMENT ON COLUMN accounts.is_churned IS 'The customer has cancelled their subscription';
COMMENT ON COLUMN contacts.is_vip IS 'A key person at the customer whose tickets get priority';
COMMENT ON COLUMN agents.team IS 'Support team: Tier 1, Tier 2, Billing or Onboarding';
COMMENT ON COLUMN agents.manager_id IS 'The agent this agent reports to; empty for the head of support';
COMMENT ON COLUMN tickets.assignee_id IS 'The agent the ticket is assigned to; empty when unassigned';
COMMENT ON COLUMN tickets.channel IS 'How the ticket came in: email, chat or phone';
COMMENT ON COLUMN tickets.status IS 'open, pending (waiting on the customer), solved or closed';
COMMENT ON COLUMN tickets.satisfaction_score IS 'CSAT rating the customer gave once the ticket was solved, 1 (worst) to 5 (best)';
COMMENT ON COLUMN ticket_replies.agent_id IS 'The agent who wrote the reply; empty for automated replies';
COMMENT ON COLUMN ticket_replies.is_public IS 'Visible to the customer; false for internal notes';
COMMENT ON COLUMN invoices.amount IS 'Invoice total in USD';
COMMENT ON COLUMN invoices.status IS 'paid, open (not yet paid) or void (cancelled)';

INSERT INTO workspaces (id, name, region) VALUES
  (1, 'Northwind Support', 'eu-west'),
  (2, 'Globex Help Center', 'us-east');

INSERT INTO priorities (id, name, sla_hours) VALUES
  (1, 'low', 72),
  (2, 'normal', 24),
  (3, 'high', 8),
  (4, 'urgent', 2);

-- Accounts 1-40 belong to workspace 1, 41-60 to workspace 2. Accounts 37-40 and 59-60 have no
-- contacts, so they never opened a ticket.
INSERT INTO accounts (id, workspace_id, name, plan, country, created_on, is_churned)
SELECT
  i,
  CASE WHEN i <= 40 THEN 1 ELSE 2 END,
  (ARRAY[
    'Acme Logistics', 'Bluebird Bakery', 'Cedar Health', 'Dunmore Legal', 'Evergreen Schools',
    'Falcon Freight', 'Granite Insurance', 'Harbor Hotels', 'Ironwood Games', 'Juniper Labs',
    'Kestrel Energy', 'Lumen Optics', 'Maple Dental', 'Nimbus Cloud', 'Orchid Florists',
    'Pinnacle Realty', 'Quarry Outdoor', 'Redwood Finance', 'Sable Fashion', 'Tidewater Marine',
    'Umber Coffee', 'Vantage Media', 'Willow Vets', 'Xeno Robotics', 'Yarrow Farms',
    'Zenith Travel', 'Atlas Printing', 'Beacon Security', 'Copper Kitchen', 'Delta Pharmacy',
    'Ember Studios', 'Fjord Analytics', 'Glacier Water', 'Halcyon Spa', 'Indigo Apparel',
    'Jasper Motors', 'Kinetic Fitness', 'Lark Books', 'Mosaic Tiles', 'Nova Solar',
    'Oakline Builders', 'Prism Events', 'Quill Publishing', 'Riverbend Clinic', 'Summit Gear',
    'Terra Landscaping', 'Upland Dairy', 'Velvet Cinema', 'Wavecrest Surf', 'Yonder Tours',
    'Zephyr Airlines', 'Alder Law', 'Birch Textiles', 'Cobalt Mining', 'Dune Imports',
    'Elm Street Cafe', 'Fable Toys', 'Grove Wellness', 'Hollow Audio', 'Ivory Weddings'
  ])[i],
  CASE WHEN i % 5 = 2 THEN 'enterprise' WHEN i % 3 = 0 THEN 'free' ELSE 'team' END,
  (ARRAY[
    'United States', 'United Kingdom', 'United States', 'Germany', 'Canada',
    'United States', 'France', 'United Kingdom', 'Australia', 'Germany'
  ])[(i % 10) + 1],
  date '2023-01-02' + (i * 29) % 1000,
  i % 7 = 3
FROM generate_series(1, 60) AS i;

-- Contacts 1-140 belong to workspace 1 (accounts 1-36), 141-200 to workspace 2 (accounts 41-58).
INSERT INTO contacts (id, workspace_id, account_id, full_name, email, phone, is_vip)
SELECT
  c,
  CASE WHEN c <= 140 THEN 1 ELSE 2 END,
  CASE WHEN c <= 140 THEN ((c - 1) % 36) + 1 ELSE 40 + ((c - 141) % 18) + 1 END,
  first_name || ' ' || last_name,
  lower(first_name) || '.' || lower(last_name) || c || '@example.com',
  CASE WHEN c % 6 = 0 THEN NULL ELSE '+1-555-' || lpad(((c * 379) % 10000)::text, 4, '0') END,
  c % 9 = 0
FROM generate_series(1, 200) AS c,
  LATERAL (SELECT
    (ARRAY[
      'Alice', 'Brian', 'Carmen', 'David', 'Erin', 'Felix', 'Gina', 'Hugo', 'Iris', 'James',
      'Karen', 'Leo', 'Maria', 'Nathan', 'Olivia', 'Peter', 'Quinn', 'Rosa', 'Simon', 'Tara'
    ])[(c % 20) + 1] AS first_name,
    (ARRAY[
      'Anderson', 'Brooks', 'Chen', 'Diaz', 'Evans', 'Foster', 'Garcia', 'Hughes', 'Ito', 'Jones',
      'Khan', 'Lopez', 'Murphy', 'Nguyen', 'Olsen', 'Patel', 'Quarles', 'Reyes', 'Schmidt', 'Taylor',
      'Underwood', 'Vargas', 'Webb', 'Young', 'Zimmer', 'Baker', 'Cole', 'Dunn', 'Ellis'
    ])[(c % 29) + 1] AS last_name
  ) AS n;

-- Agents 1-18 belong to workspace 1, 19-26 to workspace 2. In workspace 1, agents 14-18 never
-- wrote a reply and agents 15-18 were never assigned a ticket.
INSERT INTO agents (id, workspace_id, full_name, team, hired_on, is_active, manager_id)
SELECT
  i,
  CASE WHEN i <= 18 THEN 1 ELSE 2 END,
  (ARRAY[
    'Priya Shah', 'Marcus Bell', 'Elena Novak', 'Tom Fischer', 'Aisha Okafor', 'Liam Walsh',
    'Sofia Rossi', 'Daniel Kim', 'Hannah Berg', 'Omar Haddad', 'Grace Liu', 'Lucas Martin',
    'Nina Petrova', 'Ben Carter', 'Zoe Adams', 'Ravi Menon', 'Chloe Dubois', 'Sam Ortega',
    'Ivan Horvat', 'Mia Jensen', 'Noah Clarke', 'Ella Moreau', 'Jack Turner', 'Leah Cohen',
    'Oscar Lind', 'Ruby Hayes'
  ])[i],
  CASE
    WHEN i <= 7 OR i IN (17, 18) THEN 'Tier 1'
    WHEN i <= 11 THEN 'Tier 2'
    WHEN i <= 14 THEN 'Billing'
    WHEN i <= 16 THEN 'Onboarding'
    WHEN i <= 22 THEN 'Tier 1'
    WHEN i <= 24 THEN 'Tier 2'
    ELSE 'Billing'
  END,
  date '2019-02-11' + (i * 211) % 2450,
  i NOT IN (6, 13, 16, 18, 23),
  CASE
    WHEN i IN (1, 19) THEN NULL
    WHEN i IN (8, 12, 15) THEN 1
    WHEN i <= 7 OR i IN (17, 18) THEN 1
    WHEN i <= 11 THEN 8
    WHEN i <= 14 THEN 12
    WHEN i <= 16 THEN 15
    ELSE 19
  END
FROM generate_series(1, 26) AS i;

-- Tickets 1-400 belong to workspace 1 (contacts 1-120), 401-550 to workspace 2 (contacts 141-190).
INSERT INTO tickets (id, workspace_id, contact_id, assignee_id, priority_id, subject, channel,
  status, opened_at, solved_at, satisfaction_score)
SELECT
  id, ws, contact_id, assignee_id, priority_id, subject, channel, status, opened_at,
  CASE WHEN status IN ('solved', 'closed')
    THEN opened_at + ((n * 7) % 70 + 1) * interval '1 hour' + ((n * 17) % 60) * interval '1 minute'
  END,
  CASE WHEN status IN ('solved', 'closed') AND n % 6 <> 2
    THEN (ARRAY[5, 4, 5, 3, 5, 4, 2, 5, 4, 1, 5, 3, 4, 5, 4, 2, 5, 5, 3, 4, 1, 4, 5])[((n * 5 + n / 3) % 23) + 1]
  END
FROM (
  SELECT
    id, n, ws,
    CASE
      WHEN ws = 1 AND n % 4 = 0
        THEN (ARRAY[1, 2, 1, 3, 1, 2, 4, 1, 2, 3, 5, 1, 6, 2, 7, 1, 3, 8, 2, 9])[((n / 4) % 20) + 1]
      WHEN ws = 1 THEN ((n * 7 + (n * n) % 17) % 120) + 1
      ELSE 140 + ((n * 7 + (n * n) % 11) % 50) + 1
    END AS contact_id,
    CASE
      WHEN ws = 1 THEN CASE WHEN n % 13 = 0 THEN NULL ELSE (ARRAY[
        1, 2, 3, 2, 4, 5, 2, 6, 7, 3, 8, 9, 10, 2, 11, 12, 3, 13, 14, 1,
        2, 4, 5, 7, 3, 8, 9, 11, 12, 2, 5, 4, 1, 10, 7, 3, 9
      ])[((n * 11 + n * n) % 37) + 1] END
      ELSE CASE WHEN n % 9 = 0 THEN NULL ELSE (ARRAY[19, 20, 21, 20, 22, 23, 24, 20, 21, 25, 19])[(n % 11) + 1] END
    END AS assignee_id,
    CASE WHEN n % 10 < 4 THEN 2 WHEN n % 10 < 7 THEN 1 WHEN n % 10 < 9 THEN 3 ELSE 4 END AS priority_id,
    (ARRAY[
      'Cannot log in', 'Password reset', 'Invoice question', 'Export to CSV fails', 'Cannot log in',
      'Slack integration not syncing', 'Upgrade plan', 'Password reset', 'Add a new user',
      'Cannot log in', 'API rate limit', 'Data import error', 'Invoice question', 'Password reset',
      'Cancel subscription', 'Cannot log in', 'Two-factor authentication', 'Add a new user',
      'Change billing email', 'Report is slow'
    ])[((n * 7) % 20) + 1] AS subject,
    CASE WHEN n % 6 < 3 THEN 'email' WHEN n % 6 < 5 THEN 'chat' ELSE 'phone' END AS channel,
    CASE
      WHEN n % 11 = 0 THEN 'open'
      WHEN n % 11 = 5 THEN 'pending'
      WHEN n > last_n - 40 AND n % 3 = 0 THEN 'open'
      WHEN n > last_n - 40 AND n % 3 = 1 THEN 'pending'
      WHEN n % 4 = 0 THEN 'closed'
      ELSE 'solved'
    END AS status,
    timestamp '2023-01-02 07:00' + (n * step) * interval '1 hour' + ((n * 13) % 60) * interval '1 minute'
      AS opened_at
  FROM (
    SELECT t AS id, t AS n, 1 AS ws, 400 AS last_n, 65 AS step FROM generate_series(1, 400) AS t
    UNION ALL
    SELECT t, t - 400, 2, 150, 173 FROM generate_series(401, 550) AS t
  ) AS rows
) AS shaped;

-- Replies 1-1000 belong to workspace 1 (tickets 1-380; tickets 381-400 have none), 1001-1300 to
-- workspace 2. In workspace 1 only agents 1-13 reply.
INSERT INTO ticket_replies (id, workspace_id, ticket_id, agent_id, sent_at, is_public, word_count)
SELECT
  r.id, r.ws, r.ticket_id, r.agent_id,
  t.opened_at + ((r.n % 5) + 1) * interval '2 hours' + ((r.n * 11) % 50) * interval '1 minute',
  r.n % 4 <> 0,
  20 + (r.n * 37) % 280
FROM (
  SELECT g AS id, g AS n, 1 AS ws, ((g * 7) % 380) + 1 AS ticket_id,
    CASE WHEN g % 10 = 0 THEN NULL ELSE (ARRAY[
      1, 2, 3, 2, 4, 5, 6, 2, 7, 8, 3, 9, 10, 11, 12, 2, 13, 5, 3, 7, 1, 8, 2, 4, 9, 3, 7, 10, 2
    ])[((g * g + g) % 29) + 1] END AS agent_id
  FROM generate_series(1, 1000) AS g
  UNION ALL
  SELECT g, g - 1000, 2, 400 + (((g - 1000) * 7) % 140) + 1,
    CASE WHEN g % 8 = 0 THEN NULL ELSE 18 + (((g - 1000) * 5) % 6) + 1 END
  FROM generate_series(1001, 1300) AS g
) AS r
JOIN tickets AS t ON t.id = r.ticket_id;

-- Invoices 1-300 belong to workspace 1, 301-400 to workspace 2.
INSERT INTO invoices (id, workspace_id, account_id, amount, issued_on, status)
SELECT
  i,
  1,
  ((i * 11) % 40) + 1,
  (49 + (i * 173) % 2400)::numeric + ((i * 37) % 100) / 100.0,
  date '2023-01-03' + (i * 18) / 5,
  CASE WHEN i % 13 = 0 THEN 'void' WHEN i > 270 AND i % 2 = 0 THEN 'open' WHEN i % 17 = 3 THEN 'open' ELSE 'paid' END
FROM generate_series(1, 300) AS i;
INSERT INTO invoices (id, workspace_id, account_id, amount, issued_on, status)
SELECT
  300 + i,
  2,
  40 + ((i * 7) % 20) + 1,
  (99 + (i * 211) % 3100)::numeric + ((i * 53) % 100) / 100.0,
  date '2023-01-10' + i * 10,
  CASE WHEN i % 11 = 0 THEN 'void' WHEN i > 90 THEN 'open' ELSE 'paid' END
FROM generate_series(1, 100) AS i;
