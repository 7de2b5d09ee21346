-- Insurance claims platform shared by several independent UK insurance brokerages.
-- Each brokerage keeps its own policyholders, policies, coverage lines, loss adjusters,
-- incidents, claims, claim payouts, recoveries and premium invoices on the platform.
-- brokerages is the tenant registry; every other table carries brokerage_id (the tenant).
-- All money amounts are in GBP.

CREATE TABLE brokerages (
    id            integer PRIMARY KEY,
    name          text NOT NULL,
    fca_ref       varchar(10),
    hq_city       text,
    onboarded_dt  date NOT NULL
);
COMMENT ON TABLE brokerages IS 'Brokerage firms (tenants) using the claims platform.';
COMMENT ON COLUMN brokerages.fca_ref IS 'Financial Conduct Authority firm reference number.';

CREATE TABLE policyholders (
    id            integer PRIMARY KEY,
    brokerage_id  integer NOT NULL REFERENCES brokerages(id),
    cust_ref      varchar(12) NOT NULL,
    full_name     text NOT NULL,
    holder_type   text NOT NULL,
    email         text,
    phone         text,
    city          text NOT NULL,
    region        text NOT NULL,
    dob           date,
    created_at    timestamp NOT NULL
);
COMMENT ON TABLE policyholders IS 'Customers (people or businesses) who hold insurance policies placed by the brokerage.';
COMMENT ON COLUMN policyholders.cust_ref IS 'Customer reference quoted on letters and in phone calls.';
COMMENT ON COLUMN policyholders.holder_type IS 'individual or business.';
COMMENT ON COLUMN policyholders.dob IS 'Date of birth; empty for business customers.';
COMMENT ON COLUMN policyholders.created_at IS 'When the customer record was first set up.';

CREATE TABLE coverage_lines (
    id             integer PRIMARY KEY,
    brokerage_id   integer NOT NULL REFERENCES brokerages(id),
    line_cd        varchar(8) NOT NULL,
    line_nm        text NOT NULL,
    category       text NOT NULL,
    max_limit_amt  numeric(12,2)
);
COMMENT ON TABLE coverage_lines IS 'Lines of business / products the brokerage sells (motor, home, travel ...).';
COMMENT ON COLUMN coverage_lines.category IS 'personal or commercial line.';
COMMENT ON COLUMN coverage_lines.max_limit_amt IS 'Highest sum insured the brokerage can place on this line.';

CREATE TABLE policies (
    id            integer PRIMARY KEY,
    brokerage_id  integer NOT NULL REFERENCES brokerages(id),
    policy_no     varchar(20) NOT NULL,
    holder_id     integer NOT NULL REFERENCES policyholders(id),
    cov_line_id   integer NOT NULL REFERENCES coverage_lines(id),
    eff_dt        date NOT NULL,
    exp_dt        date NOT NULL,
    annual_prem   numeric(10,2) NOT NULL,
    deductible    numeric(10,2) NOT NULL,
    sum_insured   numeric(12,2) NOT NULL,
    status        text NOT NULL,
    channel       text NOT NULL,
    uw_score      smallint
);
COMMENT ON COLUMN policies.eff_dt IS 'Date cover starts (inception).';
COMMENT ON COLUMN policies.exp_dt IS 'Date cover ends (renewal date).';
COMMENT ON COLUMN policies.annual_prem IS 'Annual premium charged to the customer, before insurance premium tax.';
COMMENT ON COLUMN policies.deductible IS 'Policy excess: the part of each claim the customer pays themselves.';
COMMENT ON COLUMN policies.status IS 'active, expired, lapsed (not renewed / unpaid) or cancelled.';
COMMENT ON COLUMN policies.channel IS 'How the policy was sold: direct, aggregator (price comparison site) or referral.';
COMMENT ON COLUMN policies.uw_score IS 'Underwriting risk score 1-100 given at quote time; higher means riskier. Empty for older policies.';

CREATE TABLE adjusters (
    id            integer PRIMARY KEY,
    brokerage_id  integer NOT NULL REFERENCES brokerages(id),
    first_nm      text NOT NULL,
    last_nm       text NOT NULL,
    email         text,
    region        text NOT NULL,
    adj_type      text NOT NULL,
    hire_dt       date NOT NULL,
    daily_rate    numeric(10,2),
    active        boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE adjusters IS 'Loss adjusters who investigate and handle claims.';
COMMENT ON COLUMN adjusters.adj_type IS 'staff (employed) or independent (external firm, paid a daily rate).';
COMMENT ON COLUMN adjusters.daily_rate IS 'Fee per day for independent adjusters; empty for staff.';

CREATE TABLE incidents (
    id             integer PRIMARY KEY,
    brokerage_id   integer NOT NULL REFERENCES brokerages(id),
    occurred_at    timestamp NOT NULL,
    incident_type  text NOT NULL,
    loc_city       text NOT NULL,
    police_ref     varchar(20),
    cat_event_cd   varchar(20),
    descr          text
);
COMMENT ON TABLE incidents IS 'Loss events (accident, storm, burglary ...). One incident can lead to several claims.';
COMMENT ON COLUMN incidents.occurred_at IS 'Date and time the loss happened.';
COMMENT ON COLUMN incidents.police_ref IS 'Crime or accident reference given by the police, if reported to them.';
COMMENT ON COLUMN incidents.cat_event_cd IS 'Catastrophe event code when the loss is part of a named storm or flood event; empty otherwise.';

CREATE TABLE claims (
    id            integer PRIMARY KEY,
    brokerage_id  integer NOT NULL REFERENCES brokerages(id),
    claim_no      varchar(20) NOT NULL,
    policy_id     integer NOT NULL REFERENCES policies(id),
    incident_id   integer NOT NULL,
    adjuster_id   integer,
    fnol_dt       date NOT NULL,
    status        text NOT NULL,
    claimed_amt   numeric(10,2) NOT NULL,
    reserve_amt   numeric(10,2) NOT NULL,
    settled_amt   numeric(10,2),
    closed_dt     date,
    sev_cd        smallint NOT NULL,
    fraud_flg     boolean NOT NULL DEFAULT false,
    denial_rsn    text
);
COMMENT ON COLUMN claims.incident_id IS 'The incident (loss event) this claim arises from.';
COMMENT ON COLUMN claims.adjuster_id IS 'Loss adjuster handling the claim; empty while unassigned.';
COMMENT ON COLUMN claims.fnol_dt IS 'First notification of loss: the day the customer reported the claim.';
COMMENT ON COLUMN claims.status IS 'open, under_review, settled, denied or withdrawn.';
COMMENT ON COLUMN claims.reserve_amt IS 'Amount set aside to pay the claim, as estimated by the handler.';
COMMENT ON COLUMN claims.settled_amt IS 'Agreed settlement amount; only filled for settled claims.';
COMMENT ON COLUMN claims.sev_cd IS 'Severity: 1 = minor, 2 = moderate, 3 = major loss.';
COMMENT ON COLUMN claims.fraud_flg IS 'Flagged by the counter-fraud team for investigation.';

CREATE TABLE claim_payments (
    id            integer PRIMARY KEY,
    brokerage_id  integer NOT NULL REFERENCES brokerages(id),
    claim_id      integer NOT NULL REFERENCES claims(id),
    pay_dt        date NOT NULL,
    amt           numeric(10,2) NOT NULL,
    pay_method    text NOT NULL,
    payee_type    text NOT NULL,
    ref_no        varchar(20)
);
COMMENT ON TABLE claim_payments IS 'Payouts made on claims (a claim can be paid in several instalments).';
COMMENT ON COLUMN claim_payments.payee_type IS 'Who received the money: policyholder, repairer, medical_provider or third_party.';

CREATE TABLE recoveries (
    id             integer PRIMARY KEY,
    brokerage_id   integer NOT NULL REFERENCES brokerages(id),
    claim_id       integer NOT NULL,
    recovery_type  text NOT NULL,
    recovered_amt  numeric(10,2) NOT NULL,
    recv_dt        date NOT NULL,
    counterparty   text
);
COMMENT ON TABLE recoveries IS 'Money got back after paying a claim: from the at-fault party''s insurer (subrogation) or by selling salvage.';
COMMENT ON COLUMN recoveries.claim_id IS 'Claim the money was recovered against.';

CREATE TABLE premium_invoices (
    id            integer PRIMARY KEY,
    brokerage_id  integer NOT NULL REFERENCES brokerages(id),
    policy_id     integer NOT NULL REFERENCES policies(id),
    inst_no       smallint NOT NULL,
    inv_dt        date NOT NULL,
    due_dt        date NOT NULL,
    total         numeric(10,2) NOT NULL,
    ipt_amt       numeric(10,2) NOT NULL,
    status        text NOT NULL,
    paid_dt       date
);
COMMENT ON TABLE premium_invoices IS 'Premium bills sent to policyholders (annual or quarterly instalments).';
COMMENT ON COLUMN premium_invoices.inst_no IS 'Instalment number within the policy year (1 for annual billing, 1-4 for quarterly).';
COMMENT ON COLUMN premium_invoices.total IS 'Amount billed in GBP, including insurance premium tax.';
COMMENT ON COLUMN premium_invoices.ipt_amt IS 'Insurance premium tax (IPT) part of the bill.';
COMMENT ON COLUMN premium_invoices.status IS 'paid, outstanding or written_off.';

-- ---------------------------------------------------------------------------
-- Seed data (deterministic)
-- ---------------------------------------------------------------------------

INSERT INTO brokerages (id, name, fca_ref, hq_city, onboarded_dt) VALUES
 (1, 'Harbourside Insurance Brokers', '304512', 'Bristol', '2022-11-14'),
 (2, 'Northgate Risk Partners',       '471098', 'Leeds',   '2023-03-02');

-- policyholders: tenant 1 ids 1-400, tenant 2 ids 401-600
INSERT INTO policyholders (id, brokerage_id, cust_ref, full_name, holder_type, email, phone, city, region, dob, created_at)
SELECT t.off + g,
       t.bid,
       t.pfx || lpad((1000 + g * 3)::text, 6, '0'),
       CASE WHEN g % 5 = 0
            THEN (ARRAY['Avon','Clifton','Severn','Mendip','Redcliffe','Kingswood','Brunel','Westbury','Cotswold','Quayside',
                        'Ashton','Filton','Stokes','Temple','Harbour','Bishop','Millbrook','Oakfield','Riverside','Hawthorn'])[1 + (g / 5) % 20]
                 || ' ' || (ARRAY['Logistics','Bakery','Dental Practice','Joinery','Motors','Cafe','Builders','Print Works','Electrical','Garden Centre'])[1 + (g / 5 + g / 100) % 10]
                 || (ARRAY[' Ltd',' Ltd',' LLP',' & Co'])[1 + g % 4]
            ELSE (ARRAY['Oliver','Amelia','George','Isla','Harry','Ava','Jack','Mia','Noah','Grace',
                        'Leo','Freya','Arthur','Lily','Oscar','Emily','Thomas','Poppy','Charlie','Sophie'])[1 + g % 20]
                 || ' ' || (ARRAY['Smith','Jones','Taylor','Brown','Williams','Wilson','Davies','Evans','Thomas','Roberts',
                                  'Walker','Wright','Hughes','Green','Hall','Wood','Clarke','Patel','Khan','Lewis',
                                  'Harris','Morgan','Cooper','Ward','Bennett'])[1 + (g / 20 + g * 3) % 25]
       END,
       CASE WHEN g % 5 = 0 THEN 'business' ELSE 'individual' END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE 'cust' || (t.off + g) || '@example.co.uk' END,
       CASE WHEN g % 4 = 0 THEN NULL ELSE '07' || lpad(((g * 7919) % 1000000000)::text, 9, '0') END,
       (ARRAY['London','Manchester','Leeds','Birmingham','Bristol','Glasgow','Edinburgh','Cardiff','Brighton','Newcastle','Nottingham','Reading'])[1 + (g * 5 + t.bid) % 12],
       (ARRAY['London','North West','Yorkshire','Midlands','South West','Scotland','Scotland','Wales','South East','North East','Midlands','South East'])[1 + (g * 5 + t.bid) % 12],
       CASE WHEN g % 5 = 0 THEN NULL ELSE date '1950-01-01' + (g * 131) % 18000 END,
       timestamp '2023-01-03 09:00' + ((g * 53) % 1000) * interval '1 day' + ((g * 37) % 540) * interval '1 minute'
FROM (VALUES (1, 0, 400, 'HB'), (2, 400, 200, 'NG')) AS t(bid, off, n, pfx),
     generate_series(1, t.n) AS g;

-- coverage lines: tenant 1 ids 1-8, tenant 2 ids 9-14
INSERT INTO coverage_lines (id, brokerage_id, line_cd, line_nm, category, max_limit_amt) VALUES
 (1, 1, 'MOT',   'Private Motor',        'personal',   75000.00),
 (2, 1, 'HBLD',  'Home Buildings',       'personal',  750000.00),
 (3, 1, 'HCON',  'Home Contents',        'personal',  100000.00),
 (4, 1, 'TRV',   'Travel',               'personal',   10000.00),
 (5, 1, 'CPROP', 'Commercial Property',  'commercial', 2500000.00),
 (6, 1, 'PLIAB', 'Public Liability',     'commercial', 5000000.00),
 (7, 1, 'MCGO',  'Marine Cargo',         'commercial', 1000000.00),
 (8, 1, 'PET',   'Pet Insurance',        'personal',    15000.00),
 (9, 2, 'MOT',   'Motor',                'personal',    60000.00),
 (10, 2, 'HOME', 'Home Combined',        'personal',   600000.00),
 (11, 2, 'TRV',  'Travel',               'personal',    10000.00),
 (12, 2, 'CPROP','Commercial Property',  'commercial', 2000000.00),
 (13, 2, 'PLIAB','Public Liability',     'commercial', 2000000.00),
 (14, 2, 'VAN',  'Commercial Van',       'commercial',   80000.00);

-- adjusters: tenant 1 ids 1-14, tenant 2 ids 15-24
INSERT INTO adjusters (id, brokerage_id, first_nm, last_nm, email, region, adj_type, hire_dt, daily_rate, active) VALUES
 (1,  1, 'Sarah',   'Whitfield',  'sarah.whitfield@harbourside.co.uk',  'South West', 'staff',       '2019-04-01', NULL,   true),
 (2,  1, 'Daniel',  'Okafor',     'daniel.okafor@harbourside.co.uk',    'London',     'staff',       '2020-09-14', NULL,   true),
 (3,  1, 'Priya',   'Raman',      'priya.raman@harbourside.co.uk',      'Midlands',   'staff',       '2021-02-01', NULL,   true),
 (4,  1, 'Gareth',  'Lloyd',      'gareth.lloyd@harbourside.co.uk',     'Wales',      'staff',       '2018-06-11', NULL,   true),
 (5,  1, 'Fiona',   'McLeod',     'fiona@mcleodloss.co.uk',             'Scotland',   'independent', '2022-01-10', 420.00, true),
 (6,  1, 'Marcus',  'Hale',       'marcus.hale@harbourside.co.uk',      'North West', 'staff',       '2023-03-20', NULL,   true),
 (7,  1, 'Helen',   'Ashby',      'h.ashby@ashbyadjusting.co.uk',       'South East', 'independent', '2021-07-05', 385.00, true),
 (8,  1, 'Tom',     'Barker',     'tom.barker@harbourside.co.uk',       'Yorkshire',  'staff',       '2017-11-27', NULL,   false),
 (9,  1, 'Aisha',   'Begum',      'aisha.begum@harbourside.co.uk',      'London',     'staff',       '2023-08-01', NULL,   true),
 (10, 1, 'Rob',     'Fenwick',    'rob@fenwickclaims.co.uk',            'North East', 'independent', '2020-03-16', 450.00, true),
 (11, 1, 'Claire',  'Dunmore',    'claire.dunmore@harbourside.co.uk',   'South West', 'staff',       '2024-01-08', NULL,   true),
 (12, 1, 'Ian',     'Prescott',   'ian@prescottlossadjusters.co.uk',     'Midlands',   'independent', '2019-10-21', 395.00, false),
 (13, 1, 'Nadia',   'Kowalski',   'nadia.kowalski@harbourside.co.uk',   'South East', 'staff',       '2024-06-03', NULL,   true),
 (14, 1, 'Owen',    'Pritchard',  'owen@pritchardassess.co.uk',         'Wales',      'independent', '2022-05-09', 410.00, true),
 (15, 2, 'Laura',   'Simms',      'laura.simms@northgaterisk.co.uk',    'Yorkshire',  'staff',       '2021-01-11', NULL,   true),
 (16, 2, 'Peter',   'Crowe',      'peter.crowe@northgaterisk.co.uk',    'North East', 'staff',       '2022-04-04', NULL,   true),
 (17, 2, 'Hannah',  'Igwe',       'hannah@igweadjusting.co.uk',         'North West', 'independent', '2020-08-17', 400.00, true),
 (18, 2, 'Simon',   'Tate',       'simon.tate@northgaterisk.co.uk',     'Midlands',   'staff',       '2019-05-13', NULL,   true),
 (19, 2, 'Rachel',  'Boyd',       'rachel.boyd@northgaterisk.co.uk',    'Scotland',   'staff',       '2023-02-27', NULL,   true),
 (20, 2, 'Kevin',   'Marsh',      'kevin@marshlossservices.co.uk',      'London',     'independent', '2021-09-06', 470.00, true),
 (21, 2, 'Joanne',  'Ellis',      'joanne.ellis@northgaterisk.co.uk',   'Yorkshire',  'staff',       '2024-03-18', NULL,   true),
 (22, 2, 'Mark',    'Hendry',     'mark.hendry@northgaterisk.co.uk',    'South East', 'staff',       '2018-10-01', NULL,   false),
 (23, 2, 'Zara',    'Hussain',    'zara@hussainclaims.co.uk',           'Midlands',   'independent', '2022-11-21', 360.00, true),
 (24, 2, 'Neil',    'Gordon',     'neil.gordon@northgaterisk.co.uk',    'Scotland',   'staff',       '2020-06-29', NULL,   true);

-- policies: tenant 1 ids 1-900, tenant 2 ids 901-1400
-- line index k (1..8 for tenant 1, 1..6 for tenant 2) chosen from the row number
INSERT INTO policies (id, brokerage_id, policy_no, holder_id, cov_line_id, eff_dt, exp_dt, annual_prem, deductible, sum_insured, status, channel, uw_score)
SELECT p.id, p.bid, p.policy_no,
       -- commercial lines go to business customers (every 5th customer), personal lines to individuals
       CASE WHEN p.k8 IN (5, 6, 7) OR (p.bid = 2 AND p.k = 6)
            THEN p.hoff + 5 * (1 + (p.ord * 7) % (p.hn / 5))
            ELSE p.hoff + ((p.ord * 7) % (p.hn * 4 / 5)) / 4 * 5 + ((p.ord * 7) % (p.hn * 4 / 5)) % 4 + 1
       END,
       p.line_off + p.k, p.eff_dt, p.eff_dt + 364,
       round(((ARRAY[450, 320, 180, 90, 2400, 1100, 3200, 260])[p.k8] * (0.7 + ((p.g * 53) % 90) / 100.0) + ((p.g * 17) % 1000) / 100.0)::numeric, 2),
       (ARRAY[250, 350, 100, 75, 1000, 500, 1500, 99])[p.k8] + 50 * (p.g % 3),
       (ARRAY[18000, 320000, 45000, 5000, 850000, 2000000, 400000, 6000])[p.k8] * (1 + (p.g % 7) * 0.25),
       CASE WHEN p.g % 19 = 0 THEN 'cancelled'
            WHEN p.eff_dt + 364 < date '2025-12-31' AND p.g % 7 = 0 THEN 'lapsed'
            WHEN p.eff_dt + 364 < date '2025-12-31' THEN 'expired'
            ELSE 'active' END,
       (ARRAY['direct', 'aggregator', 'aggregator', 'referral', 'direct'])[1 + (p.g / 20 + p.g * 7) % 5],
       CASE WHEN p.eff_dt < date '2023-07-01' THEN NULL ELSE (1 + (p.g * 37 + p.g / 20) % 100)::smallint END
FROM (
  -- ord: running number of the policy among the tenant's commercial (or personal) policies
  SELECT q.*, row_number() OVER (PARTITION BY q.bid, (q.k8 IN (5, 6, 7) OR (q.bid = 2 AND q.k = 6)) ORDER BY q.g) AS ord
  FROM (
    SELECT t.off + g AS id, t.bid, g, t.line_off, t.hoff, t.hn,
           t.pfx || '-' || to_char(date '2023-01-02' + (g * 37) % 1030, 'YY') || '-' || lpad(g::text, 5, '0') AS policy_no,
           date '2023-01-02' + (g * 37) % 1030 AS eff_dt,
           -- tenant 1 mix: 30% motor, 20% buildings, 10% contents, 10% travel, 10% comm property, 10% liability, 5% marine, 5% pet
           CASE WHEN t.bid = 1 THEN
                (ARRAY[1,1,1,2,2,3,4,5,6,7,1,1,1,2,2,3,4,5,6,8])[1 + g % 20]
           ELSE (ARRAY[1,1,1,2,2,3,4,5,1,6])[1 + g % 10] END AS k,
           -- same line expressed as the tenant 1 index, used for pricing (tenant 2 van priced like motor)
           CASE WHEN t.bid = 1 THEN
                (ARRAY[1,1,1,2,2,3,4,5,6,7,1,1,1,2,2,3,4,5,6,8])[1 + g % 20]
           ELSE (ARRAY[1,1,1,2,2,4,5,6,1,1])[1 + g % 10] END AS k8
    FROM (VALUES (1, 0, 900, 0, 400, 0, 'HB'), (2, 900, 500, 400, 200, 8, 'NGR')) AS t(bid, off, n, hoff, hn, line_off, pfx),
         generate_series(1, t.n) AS g
  ) AS q
) AS p;

-- incidents: tenant 1 ids 1-700, tenant 2 ids 701-1000
-- incident i belongs to the policy with row number (i*13) mod n + 1 of the same tenant
INSERT INTO incidents (id, brokerage_id, occurred_at, incident_type, loc_city, police_ref, cat_event_cd, descr)
SELECT x.id, x.bid, x.occ, x.itype, x.city,
       CASE WHEN x.itype IN ('collision', 'theft') AND x.i % 3 <> 0 THEN 'POL' || lpad(((x.i * 4421) % 999983)::text, 7, '0') END,
       CASE WHEN x.itype IN ('storm', 'escape_of_water') AND x.occ >= '2023-10-15' AND x.occ < '2023-11-05' THEN 'CAT23-BABET'
            WHEN x.itype IN ('storm', 'escape_of_water') AND x.occ >= '2024-01-15' AND x.occ < '2024-02-05' THEN 'CAT24-ISHA'
            WHEN x.itype IN ('storm', 'escape_of_water') AND x.occ >= '2024-11-20' AND x.occ < '2024-12-15' THEN 'CAT24-DARRAGH'
       END,
       CASE x.itype
            WHEN 'collision' THEN (ARRAY['Rear-ended at traffic lights', 'Collision at roundabout', 'Hit parked car in car park', 'Side impact at junction'])[1 + x.i % 4]
            WHEN 'theft' THEN (ARRAY['Stolen overnight', 'Break-in, items taken', 'Theft while left unattended', 'Break-in through rear door'])[1 + x.i % 4]
            WHEN 'storm' THEN (ARRAY['Roof tiles blown off', 'Fence and shed damaged by wind', 'Tree fell on property'])[1 + x.i % 3]
            WHEN 'escape_of_water' THEN (ARRAY['Burst pipe in loft', 'Leaking washing machine', 'Water tank failure'])[1 + x.i % 3]
            WHEN 'fire' THEN (ARRAY['Kitchen fire', 'Electrical fire in unit', 'Fire spread from neighbouring building'])[1 + x.i % 3]
            WHEN 'accidental_damage' THEN (ARRAY['TV knocked over', 'Red wine spilt on carpet', 'Dropped phone'])[1 + x.i % 3]
            WHEN 'injury' THEN (ARRAY['Customer slipped on wet floor', 'Passer-by hit by falling sign', 'Trip over cable at site'])[1 + x.i % 3]
            WHEN 'medical' THEN (ARRAY['Hospital treatment abroad', 'Trip cancelled due to illness', 'Emergency dental treatment abroad'])[1 + x.i % 3]
            WHEN 'cargo_damage' THEN (ARRAY['Container water damage', 'Goods crushed in transit', 'Pallet dropped at port'])[1 + x.i % 3]
            ELSE (ARRAY['Vet treatment for injury', 'Ongoing illness treatment', 'Emergency surgery'])[1 + x.i % 3]
       END
FROM (
    SELECT t.ioff + i AS id, t.bid, i, pol.policy_eff,
           pol.policy_eff + ((i * 17) % GREATEST(1, LEAST(330, date '2025-12-10' - pol.policy_eff)))
               + ((i * 7) % 24) * interval '1 hour' + ((i * 13) % 60) * interval '1 minute' AS occ,
           CASE pol.line_cd
                WHEN 'MOT' THEN (ARRAY['collision', 'collision', 'collision', 'theft', 'accidental_damage'])[1 + (i / 20) % 5]
                WHEN 'VAN' THEN (ARRAY['collision', 'collision', 'theft'])[1 + (i / 20) % 3]
                WHEN 'HBLD' THEN (ARRAY['storm', 'escape_of_water', 'storm', 'fire', 'escape_of_water'])[1 + (i / 20) % 5]
                WHEN 'HOME' THEN (ARRAY['storm', 'escape_of_water', 'theft', 'accidental_damage', 'fire'])[1 + (i / 20) % 5]
                WHEN 'HCON' THEN (ARRAY['theft', 'accidental_damage', 'escape_of_water'])[1 + (i / 20) % 3]
                WHEN 'TRV' THEN 'medical'
                WHEN 'CPROP' THEN (ARRAY['fire', 'storm', 'theft', 'escape_of_water'])[1 + (i / 20) % 4]
                WHEN 'PLIAB' THEN 'injury'
                WHEN 'MCGO' THEN 'cargo_damage'
                ELSE 'vet_treatment'
           END AS itype,
           (ARRAY['London','Manchester','Birmingham','London','Bristol','Manchester','Leeds','London','Birmingham','Glasgow',
                  'Manchester','London','Bristol','Edinburgh','Birmingham','Cardiff','London','Manchester','Leeds','Brighton',
                  'Bristol','Newcastle','London','Birmingham','Nottingham','Manchester','Reading'])[1 + (i * 7 + i / 27) % 27] AS city
    FROM (VALUES (1, 0, 700, 0, 900), (2, 700, 300, 900, 500)) AS t(bid, ioff, n, poff, pn)
    CROSS JOIN LATERAL generate_series(1, t.n) AS i
    CROSS JOIN LATERAL (
        SELECT po.eff_dt AS policy_eff, cl.line_cd
        FROM policies po JOIN coverage_lines cl ON cl.id = po.cov_line_id
        WHERE po.id = t.poff + 1 + (i * 13) % t.pn
    ) AS pol
) AS x;

-- claims: tenant 1 ids 1-760, tenant 2 ids 761-1100.
-- claims 1..n_inc map to incidents 1..n_inc on the incident's policy; the extra claims are second
-- claimants on an earlier incident (e.g. both parties of a collision insured with the brokerage).
INSERT INTO claims (id, brokerage_id, claim_no, policy_id, incident_id, adjuster_id, fnol_dt, status, claimed_amt, reserve_amt, settled_amt, closed_dt, sev_cd, fraud_flg, denial_rsn)
SELECT c.id, c.bid, c.claim_no, c.policy_id, c.incident_id,
       CASE WHEN c.st = 'open' AND c.g % 3 = 0 THEN NULL ELSE c.aoff + 1 + (c.g * 5) % c.an END,
       c.fnol, c.st, c.claimed, c.reserve,
       CASE WHEN c.st = 'settled' THEN round(LEAST(c.claimed, c.claimed * (0.55 + (c.g % 6) * 0.08)) - c.excess, 2) END,
       CASE WHEN c.st IN ('settled', 'denied', 'withdrawn') THEN c.fnol + 5 + (c.g * 11) % GREATEST(1, LEAST(120, date '2025-12-31' - c.fnol - 5)) END,
       c.sev, (c.g % 29 = 0 OR (c.sev = 3 AND c.g % 7 = 0)),
       CASE WHEN c.st <> 'denied' THEN NULL
            WHEN c.claimed <= c.excess THEN 'Below excess'
            ELSE (ARRAY['Excluded peril', 'Policy not in force', 'Non-disclosure', 'Late notification', 'Wear and tear', 'Excluded peril'])[1 + (c.g / 20) % 6] END
FROM (
    SELECT b.*, 
           round((b.base * (ARRAY[0.35, 1.0, 3.2])[b.sev] * (0.8 + ((b.g * 29) % 50) / 100.0) + ((b.g * 37) % 997) / 10.0)::numeric, 2) AS claimed,
           round((b.base * (ARRAY[0.35, 1.0, 3.2])[b.sev] * (0.9 + ((b.g * 31) % 40) / 100.0))::numeric, -1) AS reserve,
           CASE WHEN b.fnol >= date '2025-10-15' AND b.s >= 8 THEN 'open'
                WHEN b.s IN (0, 1) THEN 'denied'
                WHEN b.s = 2 THEN 'withdrawn'
                WHEN b.s IN (3, 4, 5) THEN 'open'
                WHEN b.s IN (6, 7) THEN 'under_review'
                ELSE 'settled' END AS st
    FROM (
        SELECT t.coff + g AS id, t.bid, g, t.aoff, t.an, (g * 7 + (g / 20) * 3) % 20 AS s,
               t.pfx || '-' || to_char(inc.occurred_at, 'YYYY') || '-' || lpad(g::text, 5, '0') AS claim_no,
               CASE WHEN g <= t.nin THEN inc.pol_id ELSE inc.pol2_id END AS policy_id,
               inc.id AS incident_id,
               inc.occurred_at::date + (g % 9) AS fnol,
               1 + (CASE WHEN (g / 20 + g) % 10 < 6 THEN 0 WHEN (g / 20 + g) % 10 < 9 THEN 1 ELSE 2 END) AS sev,
               po.deductible AS excess,
               (CASE inc.incident_type
                     WHEN 'collision' THEN 3800 WHEN 'theft' THEN 4200 WHEN 'storm' THEN 6500
                     WHEN 'escape_of_water' THEN 7200 WHEN 'fire' THEN 14000 WHEN 'accidental_damage' THEN 900
                     WHEN 'injury' THEN 9500 WHEN 'medical' THEN 2100 WHEN 'cargo_damage' THEN 11000
                     ELSE 1300 END) AS base
        FROM (VALUES (1, 0, 760, 0, 700, 0, 900, 0, 14, 'CLM'), (2, 760, 340, 700, 300, 900, 500, 14, 10, 'NGC'))
                 AS t(bid, coff, n, ioff, nin, poff, pn, aoff, an, pfx)
        CROSS JOIN LATERAL generate_series(1, t.n) AS g
        CROSS JOIN LATERAL (
            SELECT i.id, i.occurred_at, i.incident_type, t.poff + 1 + (((g - 1) % t.nin + 1) * 13) % t.pn AS pol_id,
                   -- second claimant: another policy of the same coverage line
                   t.poff + 1 + ((((g - 1) % t.nin + 1) * 13) + 20 * (1 + g % 7)) % t.pn AS pol2_id
            FROM incidents i WHERE i.id = t.ioff + (g - 1) % t.nin + 1
        ) AS inc
        JOIN policies po ON po.id = CASE WHEN g <= t.nin THEN inc.pol_id ELSE inc.pol2_id END
    ) AS b
) AS c;

-- settled amounts can never be negative (small claims under the excess are settled at a nominal 0)
UPDATE claims SET settled_amt = 0 WHERE settled_amt < 0;

-- claim payments: settled claims paid in 1-3 instalments, some under_review claims get an interim payment
INSERT INTO claim_payments (id, brokerage_id, claim_id, pay_dt, amt, pay_method, payee_type, ref_no)
SELECT row_number() OVER (ORDER BY q.claim_id, q.k), q.brokerage_id, q.claim_id, q.pay_dt, q.amt, q.pay_method, q.payee_type,
       'PAY' || lpad((q.claim_id * 10 + q.k)::text, 7, '0')
FROM (
    SELECT c.brokerage_id, c.id AS claim_id, k,
           CASE WHEN c.status = 'settled' THEN c.fnol_dt + ((c.closed_dt - c.fnol_dt) * k) / (1 + c.id % 3)
                ELSE c.fnol_dt + 20 END AS pay_dt,
           CASE WHEN c.status = 'settled' THEN round(c.settled_amt / (1 + c.id % 3), 2)
                ELSE round(c.reserve_amt * 0.25, 2) END AS amt,
           (ARRAY['bank_transfer', 'bank_transfer', 'bank_transfer', 'cheque', 'card'])[1 + (c.id + k) % 5] AS pay_method,
           CASE WHEN i.incident_type IN ('collision', 'accidental_damage') AND k = 1 THEN 'repairer'
                WHEN i.incident_type IN ('medical', 'vet_treatment') AND k = 1 THEN 'medical_provider'
                WHEN i.incident_type = 'injury' THEN 'third_party'
                ELSE 'policyholder' END AS payee_type
    FROM claims c
    JOIN incidents i ON i.id = c.incident_id
    CROSS JOIN LATERAL generate_series(1, CASE WHEN c.status = 'settled' THEN 1 + c.id % 3 ELSE 1 END) AS k
    WHERE (c.status = 'settled' AND c.settled_amt > 0)
       OR (c.status = 'under_review' AND c.id % 4 = 0 AND c.fnol_dt <= date '2025-12-01')
) AS q;

-- recoveries on settled motor / property claims
INSERT INTO recoveries (id, brokerage_id, claim_id, recovery_type, recovered_amt, recv_dt, counterparty)
SELECT row_number() OVER (ORDER BY c.id), c.brokerage_id, c.id,
       CASE WHEN i.incident_type = 'collision' AND c.id % 5 <> 0 THEN 'subrogation'
            WHEN i.incident_type = 'collision' THEN 'salvage'
            WHEN i.incident_type = 'theft' THEN 'salvage'
            ELSE 'subrogation' END,
       round(c.settled_amt * (0.3 + (c.id % 7) * 0.1), 2),
       c.closed_dt + 30 + (c.id * 13) % 150,
       CASE WHEN i.incident_type IN ('collision', 'fire', 'escape_of_water') AND NOT (i.incident_type = 'collision' AND c.id % 5 = 0)
            THEN (ARRAY['Admiral', 'Aviva', 'Direct Line', 'LV=', 'Churchill', 'AXA', 'Hastings'])[1 + c.id % 7]
            ELSE (ARRAY['Copart UK', 'Synetiq', 'Silverlake'])[1 + c.id % 3] END
FROM claims c
JOIN incidents i ON i.id = c.incident_id
WHERE c.status = 'settled' AND c.settled_amt > 500
  AND (i.incident_type IN ('collision', 'theft') OR (i.incident_type IN ('fire', 'escape_of_water') AND c.id % 3 = 0))
  AND c.id % 2 = 0
  AND c.closed_dt + 30 + (c.id * 13) % 150 <= date '2025-12-31';

-- premium invoices: every third policy billed annually, the rest quarterly; IPT at 12%
INSERT INTO premium_invoices (id, brokerage_id, policy_id, inst_no, inv_dt, due_dt, total, ipt_amt, status, paid_dt)
SELECT row_number() OVER (ORDER BY q.policy_id, q.k), q.brokerage_id, q.policy_id, q.k, q.inv_dt, q.inv_dt + 14,
       round(q.net * 1.12, 2), round(q.net * 0.12, 2),
       CASE WHEN q.pstatus = 'cancelled' AND q.k >= 3 THEN 'written_off'
            WHEN q.inv_dt >= date '2025-11-15' THEN 'outstanding'
            WHEN q.pstatus = 'lapsed' AND q.k = q.nk AND q.nk > 1 THEN 'outstanding'
            ELSE 'paid' END,
       CASE WHEN (q.pstatus = 'cancelled' AND q.k >= 3) OR q.inv_dt >= date '2025-11-15'
                 OR (q.pstatus = 'lapsed' AND q.k = q.nk AND q.nk > 1) THEN NULL
            ELSE q.inv_dt + (q.policy_id * 3 + q.k) % 21 END
FROM (
    SELECT p.brokerage_id, p.id AS policy_id, p.status AS pstatus, k, n.nk,
           (p.eff_dt + ((k - 1) * 3) * interval '1 month')::date AS inv_dt,
           round(p.annual_prem / n.nk, 2) AS net
    FROM policies p
    CROSS JOIN LATERAL (SELECT CASE WHEN p.id % 3 = 0 THEN 1 ELSE 4 END AS nk) AS n
    CROSS JOIN LATERAL generate_series(1, n.nk) AS k
) AS q
WHERE q.inv_dt <= date '2025-12-31';

ANALYZE;
