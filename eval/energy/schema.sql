-- Platform for small UK energy retailers (electricity and gas suppliers).
-- Each retailer keeps its own customer accounts, supply points (meters), meter readings,
-- tariffs, bills, payments, fault/outage reports, field engineers and engineer visits
-- (including smart-meter installs) on the platform.
-- retailers is the tenant registry; every other table carries retailer_id (the tenant).
-- Money amounts are in GBP unless the column says pence (_p).

CREATE TABLE retailers (
    id            integer PRIMARY KEY,
    name          text NOT NULL,
    licence_no    varchar(20) NOT NULL,
    hq_city       text NOT NULL,
    onboarded_dt  date NOT NULL,
    active        boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE retailers IS 'Energy supply companies (tenants) using the platform.';
COMMENT ON COLUMN retailers.licence_no IS 'Ofgem supply licence reference.';

CREATE TABLE customers (
    id            integer PRIMARY KEY,
    retailer_id   integer NOT NULL REFERENCES retailers(id),
    acct_no       varchar(12) NOT NULL,
    full_name     text NOT NULL,
    cust_type     text NOT NULL,
    email         text,
    phone         text,
    postcode      varchar(8) NOT NULL,
    region        text NOT NULL,
    psr_flg       boolean NOT NULL DEFAULT false,
    acct_status   text NOT NULL,
    created_at    timestamp NOT NULL,
    closed_dt     date
);
COMMENT ON TABLE customers IS 'Customer accounts (households and businesses) supplied by the retailer.';
COMMENT ON COLUMN customers.acct_no IS 'Account number printed on bills and quoted on the phone.';
COMMENT ON COLUMN customers.cust_type IS 'domestic or business.';
COMMENT ON COLUMN customers.region IS 'GB region of the supply address.';
COMMENT ON COLUMN customers.psr_flg IS 'On the Priority Services Register (vulnerable customer: medical equipment, elderly, disability ...).';
COMMENT ON COLUMN customers.acct_status IS 'active, switching_away (switch to another supplier in progress) or closed.';
COMMENT ON COLUMN customers.created_at IS 'When the account was opened (customer signed up).';
COMMENT ON COLUMN customers.closed_dt IS 'Date the account was closed (customer left); empty while open.';

CREATE TABLE tariffs (
    id              integer PRIMARY KEY,
    retailer_id     integer NOT NULL REFERENCES retailers(id),
    tariff_cd       varchar(10) NOT NULL,
    tariff_nm       text NOT NULL,
    fuel_type       text NOT NULL,
    tariff_type     text NOT NULL,
    unit_rate_p     numeric(6,2) NOT NULL,
    standing_chg_p  numeric(6,2) NOT NULL,
    green_flg       boolean NOT NULL DEFAULT false,
    exit_fee_amt    numeric(6,2) NOT NULL DEFAULT 0,
    avail_from      date NOT NULL,
    avail_to        date
);
COMMENT ON TABLE tariffs IS 'Energy tariffs (price plans) offered by the retailer.';
COMMENT ON COLUMN tariffs.fuel_type IS 'elec or gas.';
COMMENT ON COLUMN tariffs.tariff_type IS 'variable, fixed, ev (cheap overnight rate for electric vehicle owners) or prepay (pay as you go).';
COMMENT ON COLUMN tariffs.unit_rate_p IS 'Price per kWh in pence, excluding VAT.';
COMMENT ON COLUMN tariffs.standing_chg_p IS 'Daily standing charge in pence, excluding VAT.';
COMMENT ON COLUMN tariffs.green_flg IS '100% renewable-backed tariff.';
COMMENT ON COLUMN tariffs.exit_fee_amt IS 'Early exit fee per fuel in GBP when leaving a fixed tariff early.';
COMMENT ON COLUMN tariffs.avail_to IS 'Last date the tariff could be taken out; empty while still on sale.';

CREATE TABLE supply_points (
    id               integer PRIMARY KEY,
    retailer_id      integer NOT NULL REFERENCES retailers(id),
    customer_id      integer NOT NULL REFERENCES customers(id),
    mpxn             varchar(13) NOT NULL,
    fuel_type        text NOT NULL,
    tariff_id        integer NOT NULL,
    meter_serial     varchar(16) NOT NULL,
    meter_type       text NOT NULL,
    meter_inst_dt    date,
    eac_kwh          integer NOT NULL,
    supply_start_dt  date NOT NULL,
    supply_end_dt    date,
    sp_status        text NOT NULL
);
COMMENT ON TABLE supply_points IS 'Supply points (one meter point per fuel per premises) the retailer supplies. A dual fuel customer has one elec and one gas supply point.';
COMMENT ON COLUMN supply_points.mpxn IS 'MPAN (electricity, 13 digits) or MPRN (gas, 10 digits) identifying the meter point.';
COMMENT ON COLUMN supply_points.fuel_type IS 'elec or gas.';
COMMENT ON COLUMN supply_points.tariff_id IS 'Tariff the supply point is currently billed on (tariffs.id).';
COMMENT ON COLUMN supply_points.meter_type IS 'smart_smets2, smart_smets1 (first generation smart), traditional (credit meter read manually) or prepayment (key/card meter).';
COMMENT ON COLUMN supply_points.meter_inst_dt IS 'Date the current meter was installed.';
COMMENT ON COLUMN supply_points.eac_kwh IS 'Estimated annual consumption in kWh.';
COMMENT ON COLUMN supply_points.supply_start_dt IS 'Date the retailer started supplying this meter point (switch-in date).';
COMMENT ON COLUMN supply_points.supply_end_dt IS 'Date supply ended (switched away / account closed); empty while supplied.';
COMMENT ON COLUMN supply_points.sp_status IS 'live (we supply it), pending (switch-in not yet completed) or lost (supplied by someone else now).';

CREATE TABLE meter_readings (
    id               integer PRIMARY KEY,
    retailer_id      integer NOT NULL REFERENCES retailers(id),
    supply_point_id  integer NOT NULL REFERENCES supply_points(id),
    read_dt          date NOT NULL,
    read_val         numeric(10,1) NOT NULL,
    units_kwh        numeric(10,1) NOT NULL,
    read_src         text NOT NULL,
    validated_flg    boolean NOT NULL
);
COMMENT ON TABLE meter_readings IS 'Meter readings taken or estimated for each supply point.';
COMMENT ON COLUMN meter_readings.read_val IS 'Register value shown on the meter.';
COMMENT ON COLUMN meter_readings.units_kwh IS 'kWh used since the previous reading.';
COMMENT ON COLUMN meter_readings.read_src IS 'smart (sent by the smart meter), customer (submitted by the customer), engineer (read on a visit) or estimated.';
COMMENT ON COLUMN meter_readings.validated_flg IS 'Reading passed validation checks and can be billed.';

CREATE TABLE bills (
    id            integer PRIMARY KEY,
    retailer_id   integer NOT NULL REFERENCES retailers(id),
    customer_id   integer NOT NULL REFERENCES customers(id),
    bill_no       varchar(16) NOT NULL,
    period_from   date NOT NULL,
    period_to     date NOT NULL,
    issue_dt      date NOT NULL,
    due_dt        date NOT NULL,
    elec_kwh      numeric(10,1) NOT NULL,
    gas_kwh       numeric(10,1) NOT NULL,
    energy_amt    numeric(10,2) NOT NULL,
    standing_amt  numeric(10,2) NOT NULL,
    vat_amt       numeric(10,2) NOT NULL,
    total_amt     numeric(10,2) NOT NULL,
    bill_status   text NOT NULL
);
COMMENT ON TABLE bills IS 'Quarterly bills sent to credit (non prepayment) customers, covering all their fuels.';
COMMENT ON COLUMN bills.energy_amt IS 'Charge for units used, excluding VAT.';
COMMENT ON COLUMN bills.standing_amt IS 'Standing charges for the period, excluding VAT.';
COMMENT ON COLUMN bills.vat_amt IS 'VAT (5% domestic, 20% business).';
COMMENT ON COLUMN bills.total_amt IS 'Amount due including VAT.';
COMMENT ON COLUMN bills.bill_status IS 'issued (not yet due), paid, overdue, disputed or cancelled.';

CREATE TABLE payments (
    id           integer PRIMARY KEY,
    retailer_id  integer NOT NULL REFERENCES retailers(id),
    customer_id  integer NOT NULL REFERENCES customers(id),
    bill_id      integer,
    pay_dt       date NOT NULL,
    amt          numeric(10,2) NOT NULL,
    pay_method   text NOT NULL,
    pay_ref      varchar(20) NOT NULL
);
COMMENT ON TABLE payments IS 'Money received from customers: bill payments and prepayment top-ups.';
COMMENT ON COLUMN payments.bill_id IS 'Bill the payment was allocated to; empty for prepayment top-ups.';
COMMENT ON COLUMN payments.pay_method IS 'direct_debit, card, bank_transfer, cheque or prepay_topup.';

CREATE TABLE engineers (
    id            integer PRIMARY KEY,
    retailer_id   integer NOT NULL REFERENCES retailers(id),
    first_nm      text NOT NULL,
    last_nm       text NOT NULL,
    region        text NOT NULL,
    emp_type      text NOT NULL,
    gas_safe_flg  boolean NOT NULL,
    day_rate_amt  numeric(8,2),
    hire_dt       date NOT NULL,
    active        boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE engineers IS 'Field engineers / metering technicians who visit customer premises.';
COMMENT ON COLUMN engineers.emp_type IS 'employee or contractor.';
COMMENT ON COLUMN engineers.gas_safe_flg IS 'Gas Safe registered (allowed to work on gas meters).';
COMMENT ON COLUMN engineers.day_rate_amt IS 'Daily rate paid to contractors; empty for employees.';

CREATE TABLE fault_reports (
    id               integer PRIMARY KEY,
    retailer_id      integer NOT NULL REFERENCES retailers(id),
    supply_point_id  integer NOT NULL,
    reported_at      timestamp NOT NULL,
    fault_cat        text NOT NULL,
    priority_cd      smallint NOT NULL,
    channel          text NOT NULL,
    status           text NOT NULL,
    resolved_at      timestamp,
    outage_mins      integer
);
COMMENT ON TABLE fault_reports IS 'Faults and supply outages reported by customers.';
COMMENT ON COLUMN fault_reports.supply_point_id IS 'Supply point (meter) the fault was reported on.';
COMMENT ON COLUMN fault_reports.fault_cat IS 'power_cut, no_gas, gas_leak, meter_fault, smart_comms (smart meter not sending reads) or display_fault (in-home display).';
COMMENT ON COLUMN fault_reports.priority_cd IS '1 = emergency, 2 = urgent, 3 = routine.';
COMMENT ON COLUMN fault_reports.channel IS 'How it was reported: phone, app, web or email.';
COMMENT ON COLUMN fault_reports.status IS 'open, assigned (engineer job raised), resolved or closed_no_fault.';
COMMENT ON COLUMN fault_reports.outage_mins IS 'Length of the loss of supply in minutes (power cuts only).';

CREATE TABLE field_visits (
    id               integer PRIMARY KEY,
    retailer_id      integer NOT NULL REFERENCES retailers(id),
    supply_point_id  integer NOT NULL REFERENCES supply_points(id),
    engineer_id      integer REFERENCES engineers(id),
    fault_id         integer,
    visit_type       text NOT NULL,
    sched_dt         date NOT NULL,
    arrived_at       timestamp,
    outcome          text NOT NULL,
    duration_min     integer,
    job_cost_amt     numeric(8,2),
    cust_rating      smallint
);
COMMENT ON TABLE field_visits IS 'Engineer appointments at customer premises: smart meter installs, fault repairs, meter exchanges and safety checks.';
COMMENT ON COLUMN field_visits.fault_id IS 'Fault report that triggered the visit (fault_reports.id); empty for planned work.';
COMMENT ON COLUMN field_visits.visit_type IS 'smart_install, fault_repair, meter_exchange or safety_check.';
COMMENT ON COLUMN field_visits.sched_dt IS 'Appointment date.';
COMMENT ON COLUMN field_visits.arrived_at IS 'When the engineer arrived on site.';
COMMENT ON COLUMN field_visits.outcome IS 'completed, no_access (nobody home / could not get in), aborted (started but could not finish) or scheduled (still to happen).';
COMMENT ON COLUMN field_visits.job_cost_amt IS 'Cost of the job in GBP (labour plus parts/meter).';
COMMENT ON COLUMN field_visits.cust_rating IS 'Customer satisfaction score 1-5 from the post-visit survey; empty if not answered.';

-- ---------------------------------------------------------------------------
-- Seed data (deterministic)
-- ---------------------------------------------------------------------------

INSERT INTO retailers (id, name, licence_no, hq_city, onboarded_dt, active) VALUES
 (1, 'Brightwater Energy',  'OFG-SL-4471', 'Bristol',   '2022-10-03', true),
 (2, 'Fenland Power Co',    'OFG-SL-5120', 'Cambridge', '2023-02-13', true),
 (3, 'Peak & Vale Energy',  'OFG-SL-6032', 'Sheffield', '2023-09-04', true);

-- customers: tenant 1 ids 1-220, tenant 2 ids 221-360, tenant 3 ids 361-450
INSERT INTO customers (id, retailer_id, acct_no, full_name, cust_type, email, phone, postcode, region, psr_flg, acct_status, created_at, closed_dt)
SELECT c.id, c.bid, c.acct_no, c.full_name, c.cust_type, c.email, c.phone,
       c.pc_area || (1 + (c.g * 7) % 19) || ' ' || (1 + c.g % 9) || (ARRAY['AB','DF','HN','QT','WX','JL','RS','EG'])[1 + (c.g * 3) % 8],
       c.region,
       (c.cust_type = 'domestic' AND (c.g % 9 = 0 OR c.g % 13 = 0)),
       CASE WHEN c.g % 17 = 0 THEN 'closed' WHEN c.g % 23 = 0 THEN 'switching_away' ELSE 'active' END,
       c.created_at,
       CASE WHEN c.g % 17 = 0 THEN LEAST(date '2026-06-20', c.created_at::date + 200 + (c.g * 13) % 300) END
FROM (
    SELECT t.off + g AS id, t.bid, g,
           t.pfx || lpad((100000 + g * 7)::text, 7, '0') AS acct_no,
           CASE WHEN g % 8 = 0
                THEN (ARRAY['Avonside','Harbour','Kestrel','Millbrook','Oakfield','Riverside','Station','Willow','Castle','Granary'])[1 + (g / 8 + t.bid) % 10]
                     || ' ' || (ARRAY['Bakery','Dental Practice','Garage','Cafe','Print Works','Vets','Hair Studio','Joinery','Stores','Brewery'])[1 + (g / 8 * 3) % 10]
                     || (ARRAY[' Ltd',' Ltd',' LLP',' & Sons'])[1 + g % 4]
                ELSE (ARRAY['Oliver','Amelia','George','Isla','Harry','Ava','Jack','Mia','Noah','Grace',
                            'Leo','Freya','Arthur','Lily','Oscar','Emily','Thomas','Poppy','Charlie','Sophie'])[1 + (g + t.bid) % 20]
                     || ' ' || (ARRAY['Smith','Jones','Taylor','Brown','Williams','Wilson','Davies','Evans','Thomas','Roberts',
                                      'Walker','Wright','Hughes','Green','Hall','Wood','Clarke','Patel','Khan','Lewis',
                                      'Harris','Morgan','Cooper','Ward','Bennett'])[1 + (g / 20 + g * 3) % 25]
           END AS full_name,
           CASE WHEN g % 8 = 0 THEN 'business' ELSE 'domestic' END AS cust_type,
           CASE WHEN g % 11 = 0 THEN NULL ELSE 'cust' || (t.off + g) || '@example.co.uk' END AS email,
           CASE WHEN g % 6 = 0 THEN NULL ELSE '07' || lpad(((g * 7919 + t.bid) % 1000000000)::text, 9, '0') END AS phone,
           (ARRAY['South West','South West','London','Midlands','North West','Yorkshire','Scotland','Wales','South East','North East','East of England','South West'])[1 + (g * 5 + t.bid * 3) % 12] AS region,
           (ARRAY['BS','BS','SE','B','M','LS','G','CF','BN','NE','CB','EX'])[1 + (g * 5 + t.bid * 3) % 12] AS pc_area,
           timestamp '2023-01-05 09:00' + ((g * 41) % 1240) * interval '1 day' + ((g * 37) % 540) * interval '1 minute' AS created_at
    FROM (VALUES (1, 0, 220, 'BW'), (2, 220, 140, 'FP'), (3, 360, 90, 'PV')) AS t(bid, off, n, pfx),
         generate_series(1, t.n) AS g
) AS c;

-- tariffs: tenant 1 ids 1-10, tenant 2 ids 11-18, tenant 3 ids 19-26
INSERT INTO tariffs (id, retailer_id, tariff_cd, tariff_nm, fuel_type, tariff_type, unit_rate_p, standing_chg_p, green_flg, exit_fee_amt, avail_from, avail_to) VALUES
 (1,  1, 'SVE',    'Standard Variable Electricity', 'elec', 'variable', 24.50, 60.10, false,   0.00, '2022-10-01', NULL),
 (2,  1, 'SVG',    'Standard Variable Gas',         'gas',  'variable',  6.24, 31.40, false,   0.00, '2022-10-01', NULL),
 (3,  1, 'FIX12E', 'Fixed 12M Electricity',         'elec', 'fixed',    22.80, 55.00, false,  50.00, '2023-04-01', NULL),
 (4,  1, 'FIX12G', 'Fixed 12M Gas',                 'gas',  'fixed',     5.90, 29.00, false,  50.00, '2023-04-01', NULL),
 (5,  1, 'GRN24E', 'Green Fixed 24M Electricity',   'elec', 'fixed',    25.90, 52.00, true,   75.00, '2023-09-01', NULL),
 (6,  1, 'GRN24G', 'Green Fixed 24M Gas',           'gas',  'fixed',     6.60, 30.00, true,   75.00, '2023-09-01', NULL),
 (7,  1, 'EVNITE', 'EV Night Saver',                'elec', 'ev',       19.40, 58.00, true,    0.00, '2024-02-01', NULL),
 (8,  1, 'PAYGE',  'Pay As You Go Electricity',     'elec', 'prepay',   25.10, 62.00, false,   0.00, '2022-10-01', NULL),
 (9,  1, 'PAYGG',  'Pay As You Go Gas',             'gas',  'prepay',    6.40, 32.00, false,   0.00, '2022-10-01', NULL),
 (10, 1, 'BIZFIX', 'Business Fixed Electricity',    'elec', 'fixed',    27.30, 75.00, false, 150.00, '2023-01-01', '2025-06-30'),
 (11, 2, 'SVE',    'Standard Variable Electricity', 'elec', 'variable', 25.20, 58.40, false,   0.00, '2023-02-01', NULL),
 (12, 2, 'SVG',    'Standard Variable Gas',         'gas',  'variable',  6.05, 30.10, false,   0.00, '2023-02-01', NULL),
 (13, 2, 'FIX12E', 'Fixed 12M Electricity',         'elec', 'fixed',    23.40, 54.00, false,  40.00, '2023-02-01', '2025-12-31'),
 (14, 2, 'FIX12G', 'Fixed 12M Gas',                 'gas',  'fixed',     5.75, 28.50, false,  40.00, '2023-02-01', '2025-12-31'),
 (15, 2, 'EVNITE', 'EV Night Saver',                'elec', 'ev',       18.90, 57.00, true,    0.00, '2023-06-01', NULL),
 (16, 2, 'PAYGE',  'Pay As You Go Electricity',     'elec', 'prepay',   25.80, 61.00, false,   0.00, '2023-02-01', NULL),
 (17, 2, 'PAYGG',  'Pay As You Go Gas',             'gas',  'prepay',    6.30, 31.00, false,   0.00, '2023-02-01', NULL),
 (18, 2, 'BIZFIX', 'Business Fixed Electricity',    'elec', 'fixed',    26.70, 70.00, false, 120.00, '2023-02-01', NULL),
 (19, 3, 'SVE',    'Standard Variable Electricity', 'elec', 'variable', 24.90, 59.50, false,   0.00, '2023-09-01', NULL),
 (20, 3, 'SVG',    'Standard Variable Gas',         'gas',  'variable',  6.15, 30.80, false,   0.00, '2023-09-01', NULL),
 (21, 3, 'FIX18E', 'Fixed 18M Electricity',         'elec', 'fixed',    23.10, 53.00, false,  60.00, '2023-09-01', NULL),
 (22, 3, 'FIX18G', 'Fixed 18M Gas',                 'gas',  'fixed',     5.85, 28.00, false,  60.00, '2023-09-01', NULL),
 (23, 3, 'GRN24E', 'Green Fixed 24M Electricity',   'elec', 'fixed',    26.40, 51.00, true,   75.00, '2024-01-01', NULL),
 (24, 3, 'PAYGE',  'Pay As You Go Electricity',     'elec', 'prepay',   25.40, 63.00, false,   0.00, '2023-09-01', NULL),
 (25, 3, 'PAYGG',  'Pay As You Go Gas',             'gas',  'prepay',    6.45, 33.00, false,   0.00, '2023-09-01', NULL),
 (26, 3, 'BIZVAR', 'Business Variable Electricity', 'elec', 'variable', 28.10, 80.00, false,   0.00, '2023-09-01', NULL);

-- supply points: every customer has an electricity point; 3 in 5 domestic customers are dual fuel (also gas).
-- the customer's plan (variable / fixed / green / ev / prepay / business) decides the tariff of each fuel.
INSERT INTO supply_points (id, retailer_id, customer_id, mpxn, fuel_type, tariff_id, meter_serial, meter_type, meter_inst_dt, eac_kwh, supply_start_dt, supply_end_dt, sp_status)
SELECT row_number() OVER (ORDER BY s.customer_id, s.fuel_type),
       s.bid, s.customer_id,
       CASE WHEN s.fuel_type = 'elec' THEN (ARRAY['10','14','22'])[s.bid] || lpad(((s.customer_id::bigint * 7919 * 1013 + 4099) % 100000000000)::text, 11, '0')
            ELSE lpad(((s.customer_id::bigint * 104729 + 7) % 10000000000)::text, 10, '0') END,
       s.fuel_type, tf.id,
       CASE WHEN s.fuel_type = 'elec' THEN (ARRAY['E','S','K'])[1 + s.g % 3] || to_char(2010 + s.g % 14, 'FM0000') || lpad(((s.customer_id * 3571) % 1000000)::text, 6, '0')
            ELSE 'G4' || (ARRAY['A','W','K'])[1 + s.g % 3] || lpad(((s.customer_id * 5417) % 10000000)::text, 7, '0') END,
       s.meter_type,
       CASE WHEN s.meter_type = 'smart_smets2' THEN s.created_at::date - (30 + (s.g * 29) % 900)
            ELSE date '2009-01-01' + (s.g * 97 + s.fo * 11) % 4000 END,
       CASE WHEN s.fuel_type = 'gas' THEN 7000 + (s.g * 263) % 9000
            WHEN s.plan = 'biz' THEN 9000 + (s.g * 977 + s.bid * 7919) % 30000
            WHEN s.plan = 'ev' THEN 4500 + (s.g * 137) % 2700
            ELSE 1800 + (s.g * 137) % 2700 END,
       s.created_at::date + 14 + s.g % 10,
       s.closed_dt,
       CASE WHEN s.closed_dt IS NOT NULL THEN 'lost'
            WHEN s.created_at::date + 14 + s.g % 10 > date '2026-05-31' THEN 'pending'
            ELSE 'live' END
FROM (
    SELECT c.id AS customer_id, c.retailer_id AS bid, c.id - t.off AS g, c.created_at, c.closed_dt, f.fuel_type, f.fo, p.plan,
           CASE WHEN p.plan = 'prepay' THEN 'prepayment'
                ELSE (ARRAY['smart_smets2','smart_smets2','smart_smets2','smart_smets2','smart_smets2','smart_smets1','smart_smets1','traditional','traditional','traditional'])[1 + ((c.id - t.off) * 3 + f.fo) % 10]
           END AS meter_type
    FROM customers c
    JOIN (VALUES (1, 0), (2, 220), (3, 360)) AS t(bid, off) ON t.bid = c.retailer_id
    CROSS JOIN LATERAL (SELECT CASE WHEN c.cust_type = 'business' THEN 'biz'
                                    ELSE (ARRAY['var','var','var','fix','fix','fix','green','green','ev','prepay'])[1 + ((c.id - t.off) * 7) % 10] END AS plan) AS p
    CROSS JOIN (VALUES ('elec', 0), ('gas', 1)) AS f(fuel_type, fo)
    WHERE f.fuel_type = 'elec' OR (c.cust_type = 'domestic' AND (c.id - t.off) % 5 < 3)
) AS s
JOIN (VALUES
      (1, 'var', 'elec', 'SVE'),    (1, 'var', 'gas', 'SVG'),
      (1, 'fix', 'elec', 'FIX12E'), (1, 'fix', 'gas', 'FIX12G'),
      (1, 'green', 'elec', 'GRN24E'), (1, 'green', 'gas', 'GRN24G'),
      (1, 'ev', 'elec', 'EVNITE'),  (1, 'ev', 'gas', 'SVG'),
      (1, 'prepay', 'elec', 'PAYGE'), (1, 'prepay', 'gas', 'PAYGG'),
      (1, 'biz', 'elec', 'BIZFIX'),
      (2, 'var', 'elec', 'SVE'),    (2, 'var', 'gas', 'SVG'),
      (2, 'fix', 'elec', 'FIX12E'), (2, 'fix', 'gas', 'FIX12G'),
      (2, 'green', 'elec', 'FIX12E'), (2, 'green', 'gas', 'FIX12G'),
      (2, 'ev', 'elec', 'EVNITE'),  (2, 'ev', 'gas', 'SVG'),
      (2, 'prepay', 'elec', 'PAYGE'), (2, 'prepay', 'gas', 'PAYGG'),
      (2, 'biz', 'elec', 'BIZFIX'),
      (3, 'var', 'elec', 'SVE'),    (3, 'var', 'gas', 'SVG'),
      (3, 'fix', 'elec', 'FIX18E'), (3, 'fix', 'gas', 'FIX18G'),
      (3, 'green', 'elec', 'GRN24E'), (3, 'green', 'gas', 'SVG'),
      (3, 'ev', 'elec', 'SVE'),     (3, 'ev', 'gas', 'SVG'),
      (3, 'prepay', 'elec', 'PAYGE'), (3, 'prepay', 'gas', 'PAYGG'),
      (3, 'biz', 'elec', 'BIZVAR')
     ) AS m(bid, plan, fuel_type, tariff_cd) ON m.bid = s.bid AND m.plan = s.plan AND m.fuel_type = s.fuel_type
JOIN tariffs tf ON tf.retailer_id = s.bid AND tf.tariff_cd = m.tariff_cd;

-- engineers: tenant 1 ids 1-10, tenant 2 ids 11-16, tenant 3 ids 17-21
INSERT INTO engineers (id, retailer_id, first_nm, last_nm, region, emp_type, gas_safe_flg, day_rate_amt, hire_dt, active) VALUES
 (1,  1, 'Dan',     'Hollis',    'South West',  'employee',   true,  NULL,   '2022-11-07', true),
 (2,  1, 'Megan',   'Price',     'South West',  'employee',   true,  NULL,   '2023-01-16', true),
 (3,  1, 'Tariq',   'Aziz',      'Midlands',    'employee',   false, NULL,   '2023-03-06', true),
 (4,  1, 'Rhys',    'Morgan',    'Wales',       'contractor', true,  310.00, '2023-05-22', true),
 (5,  1, 'Sophie',  'Turner',    'London',      'employee',   true,  NULL,   '2023-08-14', true),
 (6,  1, 'Craig',   'Dunbar',    'Scotland',    'contractor', false, 295.00, '2023-10-02', true),
 (7,  1, 'Lena',    'Novak',     'North West',  'employee',   true,  NULL,   '2024-02-19', true),
 (8,  1, 'Paul',    'Ashworth',  'Yorkshire',   'contractor', true,  325.00, '2024-04-08', false),
 (9,  1, 'Kemi',    'Adeyemi',   'South East',  'employee',   false, NULL,   '2024-09-09', true),
 (10, 1, 'Jamie',   'Fraser',    'North East',  'contractor', true,  340.00, '2025-01-13', true),
 (11, 2, 'Dan',     'Hollis',    'East of England', 'contractor', true, 305.00, '2023-03-01', true),
 (12, 2, 'Amy',     'Cole',      'East of England', 'employee', true,  NULL,   '2023-04-10', true),
 (13, 2, 'Mark',    'Reeve',     'London',      'employee',   false, NULL,   '2023-07-03', true),
 (14, 2, 'Priya',   'Shah',      'Midlands',    'employee',   true,  NULL,   '2024-01-22', true),
 (15, 2, 'Owen',    'Bell',      'South West',  'contractor', true,  315.00, '2024-06-17', true),
 (16, 2, 'Hannah',  'Lowe',      'Yorkshire',   'employee',   false, NULL,   '2024-11-04', false),
 (17, 3, 'Gareth',  'Pryce',     'Yorkshire',   'employee',   true,  NULL,   '2023-09-18', true),
 (18, 3, 'Ruth',    'Kirkby',    'Midlands',    'employee',   true,  NULL,   '2023-10-09', true),
 (19, 3, 'Sam',     'Okoro',     'North West',  'contractor', false, 290.00, '2024-03-11', true),
 (20, 3, 'Ellie',   'Marsh',     'Scotland',    'employee',   true,  NULL,   '2024-07-01', true),
 (21, 3, 'Megan',   'Price',     'Wales',       'contractor', true,  320.00, '2025-02-03', true);

-- fault reports: tenant 1 ids 1-150, tenant 2 ids 151-240, tenant 3 ids 241-300
INSERT INTO fault_reports (id, retailer_id, supply_point_id, reported_at, fault_cat, priority_cd, channel, status, resolved_at, outage_mins)
SELECT f.id, f.bid, f.sp_id, f.reported_at, f.cat,
       CASE WHEN f.cat IN ('power_cut', 'no_gas', 'gas_leak') THEN 1 WHEN f.cat = 'meter_fault' THEN 2 ELSE 3 END,
       (ARRAY['phone','phone','app','web','email'])[1 + (f.i * 3) % 5],
       f.st,
       CASE WHEN f.st IN ('resolved', 'closed_no_fault') THEN
            f.reported_at + CASE WHEN f.cat IN ('power_cut', 'no_gas', 'gas_leak') THEN (2 + (f.i * 13) % 20) * interval '1 hour' + ((f.i * 7) % 60) * interval '1 minute'
                                 WHEN f.cat = 'meter_fault' THEN (24 + (f.i * 31) % 150) * interval '1 hour'
                                 ELSE (48 + (f.i * 37) % 400) * interval '1 hour' END
       END,
       CASE WHEN f.cat = 'power_cut' THEN 20 + (f.i * 53) % 400 END
FROM (
    SELECT r.*,
           CASE WHEN r.reported_at > timestamp '2026-06-10' THEN 'open'
                WHEN (r.i * 7) % 20 IN (0, 1) THEN 'open'
                WHEN (r.i * 7) % 20 IN (2, 3) THEN 'assigned'
                WHEN (r.i * 7) % 20 = 4 THEN 'closed_no_fault'
                ELSE 'resolved' END AS st
    FROM (
        SELECT t.off + i AS id, t.bid, i, sp.id AS sp_id,
               sp.supply_start_dt + 15 + (i * 47) % GREATEST(1, date '2026-06-25' - sp.supply_start_dt - 15)
                   + ((i * 5) % 24) * interval '1 hour' + ((i * 17) % 60) * interval '1 minute' AS reported_at,
               CASE WHEN sp.fuel_type = 'elec' THEN
                        CASE WHEN (ARRAY['power_cut','power_cut','meter_fault','smart_comms','display_fault','power_cut','meter_fault','smart_comms'])[1 + (i / 3) % 8] IN ('smart_comms','display_fault')
                                  AND sp.meter_type NOT LIKE 'smart%' THEN 'meter_fault'
                             ELSE (ARRAY['power_cut','power_cut','meter_fault','smart_comms','display_fault','power_cut','meter_fault','smart_comms'])[1 + (i / 3) % 8] END
                    ELSE
                        CASE WHEN (ARRAY['meter_fault','smart_comms','no_gas','meter_fault','gas_leak'])[1 + (i / 3) % 5] = 'smart_comms'
                                  AND sp.meter_type NOT LIKE 'smart%' THEN 'meter_fault'
                             ELSE (ARRAY['meter_fault','smart_comms','no_gas','meter_fault','gas_leak'])[1 + (i / 3) % 5] END
               END AS cat
        FROM (VALUES (1, 0, 150), (2, 150, 90), (3, 240, 60)) AS t(bid, off, n)
        CROSS JOIN LATERAL generate_series(1, t.n) AS i
        CROSS JOIN LATERAL (
            SELECT x.* FROM (
                SELECT s.*, row_number() OVER (ORDER BY s.id) AS rn, count(*) OVER () AS cnt
                FROM supply_points s WHERE s.retailer_id = t.bid AND s.sp_status <> 'pending'
            ) AS x
            WHERE x.rn = 1 + (i * 17) % x.cnt
        ) AS sp
    ) AS r
) AS f;

-- field visits: fault repairs (from fault reports), smart meter installs, prepayment meter exchanges, gas safety checks
INSERT INTO field_visits (id, retailer_id, supply_point_id, engineer_id, fault_id, visit_type, sched_dt, arrived_at, outcome, duration_min, job_cost_amt, cust_rating)
SELECT row_number() OVER (ORDER BY v.bid, v.sched_dt, v.sp_id, v.visit_type),
       v.bid, v.sp_id,
       CASE WHEN v.outcome = 'scheduled' AND v.k % 3 = 0 THEN NULL
            ELSE e.eoff + 1 + (v.k * 7) % e.en END,
       v.fault_id, v.visit_type, v.sched_dt,
       CASE WHEN v.outcome <> 'scheduled' THEN v.sched_dt + interval '8 hours' + ((v.k * 37) % 540) * interval '1 minute' END,
       v.outcome,
       v.dur,
       CASE WHEN v.dur IS NULL THEN NULL
            ELSE round((v.dur / 60.0 * 42 + CASE WHEN v.outcome = 'completed' AND v.visit_type = 'smart_install' THEN 95
                                                 WHEN v.outcome = 'completed' AND v.visit_type = 'meter_exchange' THEN 70
                                                 WHEN v.outcome = 'completed' AND v.visit_type = 'fault_repair' THEN (v.k * 13) % 60
                                                 ELSE 0 END)::numeric, 2) END,
       CASE WHEN v.outcome = 'completed' AND v.k % 3 <> 0 THEN (ARRAY[5,4,5,3,4,5,2,4,5,1,4,5])[1 + (v.k * 5) % 12]::smallint END
FROM (
    SELECT w.*,
           CASE WHEN w.outcome = 'completed' THEN
                     CASE w.visit_type WHEN 'smart_install' THEN 60 + (w.k * 11) % 91
                                       WHEN 'fault_repair' THEN 30 + (w.k * 7) % 91
                                       WHEN 'meter_exchange' THEN 45 + (w.k * 3) % 46
                                       ELSE 30 + (w.k * 7) % 31 END
                WHEN w.outcome = 'aborted' THEN 10 + (w.k * 3) % 31
                WHEN w.outcome = 'no_access' THEN 5 + w.k % 11
           END AS dur
    FROM (
        -- fault repairs
        SELECT fr.retailer_id AS bid, fr.supply_point_id AS sp_id, fr.id AS fault_id, 'fault_repair' AS visit_type,
               fr.reported_at::date + CASE fr.priority_cd WHEN 1 THEN 0 WHEN 2 THEN 1 ELSE 3 END + fr.id % 3 AS sched_dt,
               CASE WHEN fr.status = 'assigned' AND fr.reported_at > timestamp '2026-05-20' THEN 'scheduled'
                    WHEN fr.status = 'assigned' THEN 'no_access'
                    ELSE 'completed' END AS outcome,
               fr.id * 3 AS k
        FROM fault_reports fr
        WHERE fr.fault_cat <> 'power_cut' AND fr.status IN ('assigned', 'resolved', 'closed_no_fault')
        UNION ALL
        -- smart meter installs on traditional and first generation smart meters
        SELECT sp.retailer_id, sp.id, NULL, 'smart_install',
               GREATEST(sp.supply_start_dt + 30, date '2023-02-01' + (sp.id * 61) % 1240),
               CASE WHEN GREATEST(sp.supply_start_dt + 30, date '2023-02-01' + (sp.id * 61) % 1240) > date '2026-05-25' THEN 'scheduled'
                    WHEN (sp.id * 7) % 10 IN (0, 3) THEN 'no_access'
                    WHEN (sp.id * 7) % 10 = 1 THEN 'aborted'
                    ELSE 'completed' END,
               sp.id * 3 + 1
        FROM supply_points sp
        WHERE sp.meter_type IN ('traditional', 'smart_smets1') AND sp.id % 3 <> 1 AND sp.sp_status <> 'pending'
          AND GREATEST(sp.supply_start_dt + 30, date '2023-02-01' + (sp.id * 61) % 1240) <= date '2026-06-30'
          AND (sp.supply_end_dt IS NULL OR GREATEST(sp.supply_start_dt + 30, date '2023-02-01' + (sp.id * 61) % 1240) < sp.supply_end_dt)
        UNION ALL
        -- prepayment meter exchanges
        SELECT sp.retailer_id, sp.id, NULL, 'meter_exchange',
               sp.supply_start_dt + 40 + (sp.id * 13) % 300,
               CASE WHEN sp.supply_start_dt + 40 + (sp.id * 13) % 300 > date '2026-05-25' THEN 'scheduled'
                    WHEN sp.id % 5 = 0 THEN 'no_access' ELSE 'completed' END,
               sp.id * 3 + 2
        FROM supply_points sp
        WHERE sp.meter_type = 'prepayment' AND sp.id % 2 = 0 AND sp.sp_status <> 'pending'
          AND sp.supply_start_dt + 40 + (sp.id * 13) % 300 <= date '2026-06-30'
          AND (sp.supply_end_dt IS NULL OR sp.supply_start_dt + 40 + (sp.id * 13) % 300 < sp.supply_end_dt)
        UNION ALL
        -- gas safety checks for vulnerable customers' gas meters and a sample of others
        SELECT sp.retailer_id, sp.id, NULL, 'safety_check',
               sp.supply_start_dt + 60 + (sp.id * 19) % 200,
               CASE WHEN sp.supply_start_dt + 60 + (sp.id * 19) % 200 > date '2026-05-25' THEN 'scheduled'
                    WHEN sp.id % 7 = 0 THEN 'no_access' ELSE 'completed' END,
               sp.id * 3
        FROM supply_points sp JOIN customers c ON c.id = sp.customer_id
        WHERE sp.fuel_type = 'gas' AND (c.psr_flg OR sp.id % 6 = 0) AND sp.sp_status <> 'pending'
          AND (sp.supply_end_dt IS NULL OR sp.supply_start_dt + 60 + (sp.id * 19) % 200 < sp.supply_end_dt)
          AND sp.supply_start_dt + 60 + (sp.id * 19) % 200 <= date '2026-06-30'
    ) AS w
) AS v
JOIN (VALUES (1, 0, 10), (2, 10, 6), (3, 16, 5)) AS e(bid, eoff, en) ON e.bid = v.bid;

-- completed smart installs replace the meter with a SMETS2 smart meter
UPDATE supply_points sp
SET meter_type = 'smart_smets2', meter_inst_dt = fv.sched_dt
FROM field_visits fv
WHERE fv.supply_point_id = sp.id AND fv.visit_type = 'smart_install' AND fv.outcome = 'completed';

-- meter readings: roughly quarterly, up to 4 per supply point
INSERT INTO meter_readings (id, retailer_id, supply_point_id, read_dt, read_val, units_kwh, read_src, validated_flg)
SELECT row_number() OVER (ORDER BY r.supply_point_id, r.k),
       r.retailer_id, r.supply_point_id, r.read_dt,
       r.base + SUM(r.units) OVER (PARTITION BY r.supply_point_id ORDER BY r.k),
       r.units, r.src,
       (r.src <> 'estimated' AND (r.supply_point_id + r.k) % 11 <> 0)
FROM (
    SELECT sp.retailer_id, sp.id AS supply_point_id, k,
           sp.supply_start_dt + k * 91 + sp.id % 10 AS read_dt,
           ((sp.id * 773) % 40000)::numeric AS base,
           round((sp.eac_kwh / 4.0 * (0.75 + ((sp.id * k * 13) % 50) / 100.0))::numeric, 1) AS units,
           CASE WHEN sp.meter_type LIKE 'smart%' AND sp.supply_start_dt + k * 91 + sp.id % 10 >= COALESCE(sp.meter_inst_dt, date '2000-01-01')
                     THEN CASE WHEN (sp.id * k) % 9 = 0 THEN 'estimated' ELSE 'smart' END
                ELSE (ARRAY['customer','customer','estimated','engineer','customer','estimated'])[1 + (sp.id + k * 5) % 6] END AS src
    FROM supply_points sp
    CROSS JOIN generate_series(1, 4) AS k
    WHERE sp.supply_start_dt + k * 91 + sp.id % 10 <= date '2026-06-30'
      AND (sp.supply_end_dt IS NULL OR sp.supply_start_dt + k * 91 + sp.id % 10 <= sp.supply_end_dt)
) AS r;

-- bills: quarterly, up to 4 per credit customer (prepayment customers are not billed)
INSERT INTO bills (id, retailer_id, customer_id, bill_no, period_from, period_to, issue_dt, due_dt, elec_kwh, gas_kwh, energy_amt, standing_amt, vat_amt, total_amt, bill_status)
SELECT b.id, b.retailer_id, b.customer_id,
       (ARRAY['BWB','FPB','PVB'])[b.retailer_id] || lpad((b.id * 7 + 10000)::text, 7, '0'),
       b.period_from, b.period_to, b.issue_dt, b.issue_dt + 14,
       b.elec_kwh, b.gas_kwh, b.energy_amt, b.standing_amt,
       round((b.energy_amt + b.standing_amt) * b.vat_rate, 2),
       b.energy_amt + b.standing_amt + round((b.energy_amt + b.standing_amt) * b.vat_rate, 2),
       CASE WHEN b.issue_dt + 14 > date '2026-06-30' THEN 'issued'
            WHEN (b.customer_id * 3 + b.k * 7) % 20 IN (0, 11) THEN 'overdue'
            WHEN (b.customer_id * 3 + b.k * 7) % 20 = 5 THEN 'disputed'
            WHEN (b.customer_id * 3 + b.k * 7) % 20 = 17 THEN 'cancelled'
            ELSE 'paid' END
FROM (
    SELECT row_number() OVER (ORDER BY q.customer_id, q.k) AS id, q.*,
           round((q.elec_kwh * q.e_rate / 100.0 + q.gas_kwh * COALESCE(q.g_rate, 0) / 100.0)::numeric, 2) AS energy_amt,
           round(((q.period_to - q.period_from + 1) * (q.e_sc + COALESCE(q.g_sc, 0)) / 100.0)::numeric, 2) AS standing_amt
    FROM (
        SELECT c.retailer_id, c.id AS customer_id, k,
               (date_trunc('month', e.supply_start_dt) + (k - 1) * interval '3 months')::date AS period_from,
               (date_trunc('month', e.supply_start_dt) + k * interval '3 months' - interval '1 day')::date AS period_to,
               (date_trunc('month', e.supply_start_dt) + k * interval '3 months')::date + 2 + c.id % 5 AS issue_dt,
               round((e.eac_kwh / 4.0 * (0.8 + ((c.id * k * 7) % 45) / 100.0))::numeric, 1) AS elec_kwh,
               COALESCE(round((gs.eac_kwh / 4.0 * (0.7 + ((c.id * k * 11) % 60) / 100.0))::numeric, 1), 0) AS gas_kwh,
               et.unit_rate_p AS e_rate, et.standing_chg_p AS e_sc, gt.unit_rate_p AS g_rate, gt.standing_chg_p AS g_sc,
               CASE WHEN c.cust_type = 'business' THEN 0.20 ELSE 0.05 END AS vat_rate
        FROM customers c
        JOIN supply_points e ON e.customer_id = c.id AND e.fuel_type = 'elec'
        JOIN tariffs et ON et.id = e.tariff_id
        LEFT JOIN supply_points gs ON gs.customer_id = c.id AND gs.fuel_type = 'gas'
        LEFT JOIN tariffs gt ON gt.id = gs.tariff_id
        CROSS JOIN generate_series(1, 4) AS k
        WHERE et.tariff_type <> 'prepay'
          AND (date_trunc('month', e.supply_start_dt) + k * interval '3 months')::date + 2 + c.id % 5 <= date '2026-06-30'
          AND (c.closed_dt IS NULL OR (date_trunc('month', e.supply_start_dt) + (k - 1) * interval '3 months')::date <= c.closed_dt)
    ) AS q
) AS b;

-- payments: paid bills paid in full (every 4th bill in two parts), some overdue bills part paid, prepayment top-ups
INSERT INTO payments (id, retailer_id, customer_id, bill_id, pay_dt, amt, pay_method, pay_ref)
SELECT row_number() OVER (ORDER BY p.retailer_id, p.pay_dt, p.customer_id, p.part),
       p.retailer_id, p.customer_id, p.bill_id, p.pay_dt, p.amt, p.pay_method,
       'PY' || lpad((p.customer_id * 100 + p.part * 10 + COALESCE(p.bill_id, 0) % 10)::text, 8, '0')
FROM (
    SELECT b.retailer_id, b.customer_id, b.id AS bill_id, pt.part,
           LEAST(date '2026-06-30', CASE WHEN pt.part = 1 THEN b.due_dt - 5 + b.id % 9 ELSE b.due_dt + 10 + b.id % 12 END) AS pay_dt,
           CASE WHEN b.bill_status = 'overdue' THEN round(b.total_amt * 0.4, 2)
                WHEN b.id % 4 = 0 AND pt.part = 1 THEN round(b.total_amt / 2, 2)
                WHEN b.id % 4 = 0 THEN b.total_amt - round(b.total_amt / 2, 2)
                ELSE b.total_amt END AS amt,
           CASE WHEN c.cust_type = 'business' AND b.customer_id % 3 = 0 THEN 'bank_transfer'
                WHEN b.customer_id % 10 < 6 THEN 'direct_debit'
                WHEN b.customer_id % 10 < 9 THEN 'card'
                ELSE 'cheque' END AS pay_method
    FROM bills b
    JOIN customers c ON c.id = b.customer_id
    CROSS JOIN generate_series(1, 2) AS pt(part)
    WHERE (b.bill_status = 'paid' AND (pt.part = 1 OR b.id % 4 = 0))
       OR (b.bill_status = 'overdue' AND b.id % 3 = 0 AND pt.part = 1)
    UNION ALL
    SELECT sp.retailer_id, sp.customer_id, NULL, k,
           sp.supply_start_dt + k * 45 + sp.id % 7,
           (10 * (1 + (sp.customer_id * k) % 5))::numeric,
           'prepay_topup'
    FROM supply_points sp
    JOIN tariffs t ON t.id = sp.tariff_id
    CROSS JOIN generate_series(1, 6) AS k
    WHERE t.tariff_type = 'prepay'
      AND sp.supply_start_dt + k * 45 + sp.id % 7 <= COALESCE(sp.supply_end_dt, date '2026-06-30')
) AS p;
