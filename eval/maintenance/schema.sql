-- Held-out evaluation set: maintenance management (CMMS) for factories.
-- Multi-tenant: several manufacturers share one schema. The tenant registry is
-- manufacturers(id); every other table carries manufacturer_id. Rows are deterministic
-- (generate_series and arithmetic on the row number, no random()); dates span 2023-2025.

CREATE TABLE manufacturers (
  id integer PRIMARY KEY,
  name text NOT NULL,
  hq_country text NOT NULL,
  currency_cd char(3) NOT NULL,
  onboarded_dt date NOT NULL
);

CREATE TABLE plants (
  plant_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  plant_code text NOT NULL,
  plant_name text NOT NULL,
  city text NOT NULL,
  country text NOT NULL,
  opened_dt date NOT NULL
);

CREATE TABLE prod_lines (
  line_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  plant_id integer NOT NULL REFERENCES plants (plant_id),
  line_name text NOT NULL,
  line_type text NOT NULL,
  shifts_per_day smallint NOT NULL,
  commissioned_dt date NOT NULL
);

CREATE TABLE assets (
  asset_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  line_id integer NOT NULL REFERENCES prod_lines (line_id),
  asset_tag text NOT NULL,
  asset_name text NOT NULL,
  asset_class text NOT NULL,
  oem text NOT NULL,
  model_no text,
  install_dt date NOT NULL,
  mtbf_hrs numeric(8,1),
  crit_lvl smallint NOT NULL,
  asset_status text NOT NULL,
  acq_cost numeric(10,2) NOT NULL
);

CREATE TABLE technicians (
  tech_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  plant_id integer NOT NULL REFERENCES plants (plant_id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  trade text NOT NULL,
  hourly_rate numeric(10,2) NOT NULL,
  hire_dt date NOT NULL,
  is_active boolean NOT NULL,
  email text NOT NULL
);

CREATE TABLE vendors (
  vendor_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  vendor_name text NOT NULL,
  country text NOT NULL,
  contact_email text,
  lead_time_days integer NOT NULL,
  is_preferred boolean NOT NULL
);

CREATE TABLE parts (
  part_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  part_no text NOT NULL,
  part_desc text NOT NULL,
  category text NOT NULL,
  unit_cost numeric(10,2) NOT NULL,
  qty_on_hand integer NOT NULL,
  reorder_pt integer NOT NULL,
  bin_loc text,
  pref_vendor_id integer
);

CREATE TABLE work_orders (
  wo_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  wo_num text NOT NULL,
  asset_id integer NOT NULL REFERENCES assets (asset_id),
  assigned_tech_id integer,
  wo_type text NOT NULL,
  priority text NOT NULL,
  wo_status text NOT NULL,
  opened_at timestamp NOT NULL,
  closed_at timestamp,
  labor_hrs numeric(6,2) NOT NULL,
  failure_cd text,
  descr text NOT NULL
);

CREATE TABLE wo_parts (
  wo_part_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  wo_id integer NOT NULL REFERENCES work_orders (wo_id),
  part_id integer NOT NULL REFERENCES parts (part_id),
  qty_used integer NOT NULL,
  issued_at timestamp NOT NULL
);

CREATE TABLE downtime_events (
  dt_event_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  asset_id integer NOT NULL REFERENCES assets (asset_id),
  wo_id integer,
  start_ts timestamp NOT NULL,
  end_ts timestamp,
  reason_cd text NOT NULL,
  is_planned boolean NOT NULL,
  units_lost integer NOT NULL
);

CREATE TABLE purchase_orders (
  po_id integer PRIMARY KEY,
  manufacturer_id integer NOT NULL REFERENCES manufacturers (id),
  vendor_id integer NOT NULL REFERENCES vendors (vendor_id),
  po_num text NOT NULL,
  po_dt date NOT NULL,
  total numeric(10,2) NOT NULL,
  po_status text NOT NULL,
  expected_dt date,
  received_dt date
);

COMMENT ON COLUMN assets.mtbf_hrs IS 'Mean time between failures in operating hours, as rated by the OEM; NULL when the OEM gives no rating';
COMMENT ON COLUMN assets.crit_lvl IS 'Criticality: 1 = stops the line when down, 2 = degrades output, 3 = non-critical';
COMMENT ON COLUMN assets.oem IS 'Original equipment maker of the machine (e.g. Haas, Fanuc); not the tenant manufacturer';
COMMENT ON COLUMN assets.acq_cost IS 'Acquisition (purchase) cost of the machine';
COMMENT ON COLUMN parts.reorder_pt IS 'Reorder point: a purchase should be raised when qty_on_hand is at or below this';
COMMENT ON COLUMN parts.pref_vendor_id IS 'Preferred supplier for this part (vendors.vendor_id)';
COMMENT ON COLUMN work_orders.assigned_tech_id IS 'Technician the job is assigned to (technicians.tech_id); NULL while unassigned';
COMMENT ON COLUMN work_orders.wo_type IS 'corrective (breakdown repair), preventive (scheduled PM), predictive or inspection';
COMMENT ON COLUMN work_orders.failure_cd IS 'Failure code recorded on corrective work orders; NULL otherwise';
COMMENT ON COLUMN work_orders.closed_at IS 'When the work was completed; NULL for work orders that are open, in progress, on hold or cancelled';
COMMENT ON COLUMN downtime_events.wo_id IS 'Work order raised for this stoppage (work_orders.wo_id), if any';
COMMENT ON COLUMN downtime_events.units_lost IS 'Production units lost during the stoppage';
COMMENT ON COLUMN purchase_orders.total IS 'Order value including freight, excluding VAT, in the tenant currency';

-- ---------------------------------------------------------------- seed data

INSERT INTO manufacturers VALUES
  (1, 'Hartwell Precision Components', 'US', 'USD', '2022-11-15'),
  (2, 'Nordmark Verpackung GmbH', 'DE', 'EUR', '2023-02-01');

INSERT INTO plants VALUES
  (1, 1, 'DAY', 'Dayton Machining', 'Dayton', 'US', '1998-05-04'),
  (2, 1, 'GVL', 'Greenville Assembly', 'Greenville', 'US', '2006-09-18'),
  (3, 1, 'TUL', 'Tulsa Fabrication', 'Tulsa', 'US', '2014-03-10'),
  (4, 2, 'BRE', 'Werk Bremen', 'Bremen', 'DE', '1987-07-01'),
  (5, 2, 'LEI', 'Werk Leipzig', 'Leipzig', 'DE', '2009-04-20');

INSERT INTO prod_lines VALUES
  (1, 1, 1, 'CNC Turning', 'machining', 3, '2015-01-12'),
  (2, 1, 1, 'CNC Milling', 'machining', 3, '2016-06-01'),
  (3, 1, 1, 'Deburr and Wash', 'finishing', 2, '2018-02-19'),
  (4, 1, 2, 'Final Assembly A', 'assembly', 2, '2012-08-06'),
  (5, 1, 2, 'Final Assembly B', 'assembly', 2, '2019-10-14'),
  (6, 1, 2, 'Paint Shop', 'painting', 2, '2010-04-26'),
  (7, 1, 3, 'Weld Cell 1', 'welding', 2, '2014-05-05'),
  (8, 1, 3, 'Press Line', 'stamping', 3, '2017-11-27'),
  (9, 2, 4, 'Thermoformer 1', 'forming', 3, '2011-03-07'),
  (10, 2, 4, 'Thermoformer 2', 'forming', 3, '2020-01-13'),
  (11, 2, 4, 'Carton Line', 'packaging', 2, '2013-09-02'),
  (12, 2, 5, 'Print Line', 'printing', 2, '2016-05-23'),
  (13, 2, 5, 'Palletizing', 'packaging', 2, '2021-08-16');

-- tenant configuration used by the generators below
CREATE TEMP TABLE seed_cfg (
  mid integer, n_assets integer, asset_off integer, line_off integer, n_lines integer,
  n_techs integer, tech_off integer, plant_off integer, n_plants integer,
  n_vendors integer, vendor_off integer, n_parts integer, part_off integer,
  n_wos integer, wo_off integer, n_pos integer, po_off integer, shift integer
);
INSERT INTO seed_cfg VALUES
  (1, 40, 0, 1, 8, 14, 0, 1, 3, 8, 0, 30, 0, 400, 0, 120, 0, 0),
  (2, 25, 40, 9, 5, 9, 14, 4, 2, 6, 8, 20, 30, 250, 400, 80, 120, 3);

CREATE TEMP TABLE seed_class (cls text, prefix text, label text, oem1 text, oem2 text, base_cost numeric);
INSERT INTO seed_class VALUES
  ('cnc', 'CNC', 'CNC lathe', 'Haas', 'DMG Mori', 185000),
  ('press', 'PRS', 'Hydraulic press', 'Schuler', 'Schuler', 240000),
  ('conveyor', 'CNV', 'Belt conveyor', 'Dematic', 'Interroll', 38000),
  ('robot', 'RBT', '6-axis robot', 'Fanuc', 'KUKA', 92000),
  ('compressor', 'CMP', 'Air compressor', 'Atlas Copco', 'Kaeser', 27000),
  ('pump', 'PMP', 'Coolant pump', 'Grundfos', 'KSB', 8500),
  ('welder', 'WLD', 'MIG welder', 'Lincoln Electric', 'Fronius', 21000),
  ('chiller', 'CHL', 'Process chiller', 'Carrier', 'Trane', 46000),
  ('thermoformer', 'THF', 'Thermoforming machine', 'Kiefel', 'Kiefel', 610000),
  ('printer', 'PRT', 'Flexo printing press', 'Bobst', 'Bobst', 450000),
  ('palletizer', 'PAL', 'Palletizer', 'Krones', 'Krones', 210000);

-- five machines per line, of the kinds that line runs
CREATE TEMP TABLE seed_slot (line_id integer, classes text[]);
INSERT INTO seed_slot VALUES
  (1, ARRAY['cnc','cnc','cnc','pump','conveyor']),
  (2, ARRAY['cnc','cnc','pump','chiller','cnc']),
  (3, ARRAY['conveyor','pump','robot','compressor','chiller']),
  (4, ARRAY['conveyor','robot','robot','compressor','conveyor']),
  (5, ARRAY['conveyor','robot','compressor','conveyor','robot']),
  (6, ARRAY['conveyor','robot','compressor','chiller','pump']),
  (7, ARRAY['welder','welder','robot','welder','chiller']),
  (8, ARRAY['press','press','press','conveyor','compressor']),
  (9, ARRAY['thermoformer','chiller','compressor','conveyor','pump']),
  (10, ARRAY['thermoformer','chiller','conveyor','robot','pump']),
  (11, ARRAY['conveyor','robot','conveyor','compressor','press']),
  (12, ARRAY['printer','printer','conveyor','chiller','compressor']),
  (13, ARRAY['palletizer','robot','conveyor','conveyor','compressor']);

INSERT INTO assets
SELECT c.asset_off + s.n,
       c.mid,
       s.line_id,
       k.prefix || '-' || lpad((10 + s.cls_seq)::text, 3, '0'),
       k.label || ' #' || s.cls_seq,
       s.cls,
       CASE WHEN c.mid = 1 THEN k.oem1 ELSE k.oem2 END,
       CASE WHEN s.n % 9 = 4 THEN NULL ELSE chr(65 + s.n % 6) || chr(65 + (s.n * 7) % 26) || '-' || (100 + s.n * 37 % 900) END,
       DATE '2008-01-01' + (s.n * 97 + c.shift * 41) % 5400,
       CASE WHEN s.n % 7 = 3 THEN NULL ELSE 1500 + ((s.n * 433) % 40) * 250 END,
       CASE WHEN s.n % 5 IN (0, 1) THEN 1 WHEN s.n % 5 IN (2, 3) THEN 2 ELSE 3 END,
       CASE WHEN s.n % 13 = 7 THEN 'retired' WHEN s.n % 6 = 5 THEN 'standby' ELSE 'in_service' END,
       round(k.base_cost * (1 + ((s.n * 17) % 30) / 100.0), 2)
FROM seed_cfg c
CROSS JOIN LATERAL (
  SELECT row_number() OVER (ORDER BY sl.line_id, u.k)::integer AS n,
         row_number() OVER (PARTITION BY u.cls ORDER BY sl.line_id, u.k)::integer AS cls_seq,
         sl.line_id, u.cls
  FROM seed_slot sl CROSS JOIN LATERAL unnest(sl.classes) WITH ORDINALITY AS u(cls, k)
  WHERE sl.line_id >= c.line_off AND sl.line_id < c.line_off + c.n_lines
) s
JOIN seed_class k ON k.cls = s.cls;

INSERT INTO technicians
SELECT c.tech_off + n,
       c.mid,
       c.plant_off + (n % c.n_plants),
       CASE WHEN c.mid = 1
            THEN (ARRAY['Mike','Darnell','Luis','Sarah','Kevin','Tony','Rachel','Jim','Carlos','Bethany','Ray','Andre','Heather','Dustin'])[n]
            ELSE (ARRAY['Jens','Katrin','Marco','Stefan','Anja','Tobias','Yusuf','Sabine','Lukas'])[n] END,
       CASE WHEN c.mid = 1
            THEN (ARRAY['Kowalski','Brooks','Hernandez','Mitchell','Nguyen','Russo','Patel','Baker','Ortiz','Lane','Fuller','Washington','Graves','Pruitt'])[n]
            ELSE (ARRAY['Hoffmann','Becker','Schulz','Wagner','Krause','Richter','Demir','Lorenz','Vogel'])[n] END,
       (ARRAY['mechanical','electrical','mechanical','hydraulics','controls','mechanical','electrical'])[1 + (n + c.shift) % 7],
       (28 + (n * 7 + c.shift) % 19) + (n % 4) * 0.25,
       DATE '2009-03-01' + (n * 331 + c.shift * 57) % 5300,
       NOT (n % 6 = 5),
       lower(CASE WHEN c.mid = 1
            THEN (ARRAY['Mike','Darnell','Luis','Sarah','Kevin','Tony','Rachel','Jim','Carlos','Bethany','Ray','Andre','Heather','Dustin'])[n]
            ELSE (ARRAY['Jens','Katrin','Marco','Stefan','Anja','Tobias','Yusuf','Sabine','Lukas'])[n] END)
         || '.' || n || CASE WHEN c.mid = 1 THEN '@hartwellpc.com' ELSE '@nordmark.de' END
FROM seed_cfg c CROSS JOIN LATERAL generate_series(1, c.n_techs) AS n;

INSERT INTO vendors
SELECT c.vendor_off + n,
       c.mid,
       CASE WHEN c.mid = 1
            THEN (ARRAY['Grainger Industrial Supply','Motion Industries','Applied Industrial Technologies','McMaster-Carr','Fastenal','SKF USA','Parker Hannifin','Rexnord'])[n]
            ELSE (ARRAY['Wurth Industrie Service','Hoffmann Group','SKF GmbH','Festo AG','Bosch Rexroth','Siemens Industry'])[n] END,
       CASE WHEN c.mid = 1 THEN (ARRAY['US','US','US','US','US','SE','US','US'])[n]
            ELSE (ARRAY['DE','DE','SE','DE','DE','DE'])[n] END,
       CASE WHEN n % 4 = 3 THEN NULL ELSE 'orders' || n || '@supplier' || (c.vendor_off + n) || '.example' END,
       2 + (n * 5 + c.shift) % 19,
       n % 3 <> 2
FROM seed_cfg c CROSS JOIN LATERAL generate_series(1, c.n_vendors) AS n;

INSERT INTO parts
SELECT c.part_off + p.n,
       c.mid,
       CASE WHEN c.mid = 1 THEN 'HP-' ELSE 'NV-' END || lpad((1000 + p.n * 37)::text, 5, '0'),
       p.descr,
       p.cat,
       round(p.base_cost * CASE WHEN c.mid = 1 THEN 1 ELSE 0.92 END, 2),
       greatest((p.n * 7 + c.shift * 5) % 23 - 3, 0),
       4 + (p.n % 4) * 2,
       CASE WHEN p.n % 8 = 6 THEN NULL ELSE chr(65 + p.n % 5) || '-' || lpad((p.n * 3 % 40 + 1)::text, 2, '0') END,
       c.vendor_off + 1 + (p.n * 3) % c.n_vendors
FROM seed_cfg c
CROSS JOIN LATERAL (
  SELECT t.n::integer, t.descr, t.cat, t.base_cost
  FROM unnest(
    ARRAY['6205-2RS deep groove ball bearing','6308 ball bearing','V-belt B52','Timing belt HTD 8M-1200',
          'Hydraulic return filter 10 micron','Air intake filter element','Shaft seal 45x62x8','O-ring kit metric',
          'Inductive proximity sensor M18','Photoelectric sensor','Servo motor 1.5 kW','Gear motor 0.75 kW',
          'Fuse 10A class CC','Fuse 30A class J','Hydraulic hose 1/2 in x 36 in','Hydraulic hose 3/4 in x 48 in',
          'Way oil ISO 68 5 gal','Spindle grease 400 g','Control relay 24VDC','Contactor 3-pole 25A',
          'Coolant pump impeller','Limit switch roller lever','Rotary encoder 1024 ppr','Solenoid valve 24VDC',
          'Pneumatic cylinder 50x100','Drive chain #60 10 ft','Sprocket 60B18','Tool holder CAT40',
          'Collet ER32 set','MIG contact tip 0.035 in'],
    ARRAY['bearing','bearing','belt','belt','filter','filter','seal','seal','sensor','sensor','motor','motor',
          'electrical','electrical','hydraulic','hydraulic','lubricant','lubricant','electrical','electrical',
          'pump','sensor','sensor','pneumatic','pneumatic','drive','drive','tooling','tooling','welding'],
    ARRAY[18.40, 42.75, 21.90, 64.30, 48.60, 35.15, 9.80, 27.50, 58.90, 112.40, 1480.00, 615.00,
          6.25, 14.80, 73.20, 96.45, 88.00, 23.70, 31.60, 84.90, 142.00, 46.30, 268.00, 119.50,
          187.25, 79.60, 54.10, 96.80, 212.00, 2.35]::numeric[]
  ) WITH ORDINALITY AS t(descr, cat, base_cost, n)
  WHERE t.n <= c.n_parts
) p;

INSERT INTO work_orders
SELECT c.wo_off + w.n,
       c.mid,
       'WO-' || to_char(w.opened_at, 'YYYY') || '-' || lpad(w.n::text, 4, '0'),
       c.asset_off + 1 + w.aidx,
       CASE WHEN w.st = 'open' AND w.n % 2 = 0 THEN NULL ELSE c.tech_off + 1 + (w.n * 5 + c.shift) % c.n_techs END,
       w.typ,
       w.prio,
       w.st,
       w.opened_at,
       CASE WHEN w.st IN ('open','in_progress','on_hold','cancelled') THEN NULL
            ELSE w.opened_at + (CASE w.prio WHEN 'critical' THEN (w.n % 8) + 1
                                            WHEN 'high' THEN (w.n * 5) % 24 + 4
                                            WHEN 'medium' THEN (w.n * 7) % 72 + 8
                                            ELSE (w.n * 11) % 160 + 24 END) * interval '1 hour'
                              + ((w.n * 13) % 60) * interval '1 minute' END,
       CASE WHEN w.st = 'cancelled' THEN 0
            WHEN w.st IN ('open','on_hold') THEN (w.n % 3) * 0.5
            ELSE ((w.n * 7) % 16 + 1) * 0.5 END,
       CASE WHEN w.typ = 'corrective'
            THEN (ARRAY['BRG-WEAR','ELEC-FAULT','HYD-LEAK','SENSOR','MISALIGN','OVERHEAT'])[1 + (w.n * 5 + w.n / 6 + c.shift) % 6] END,
       CASE w.typ
         WHEN 'corrective' THEN (ARRAY['Bearing noise, machine stopped','Drive tripped on overload','Hydraulic oil leak at cylinder',
                                       'Sensor not detecting parts','Belt running off track','Overheating alarm'])[1 + (w.n * 5 + w.n / 6 + c.shift) % 6]
         WHEN 'preventive' THEN (ARRAY['Monthly lubrication','Quarterly PM checklist','Annual overhaul','Filter change'])[1 + w.n % 4]
         WHEN 'predictive' THEN 'Vibration analysis follow-up'
         ELSE 'Safety guard inspection' END
FROM seed_cfg c
CROSS JOIN LATERAL (
  SELECT n,
         TIMESTAMP '2023-01-02 06:00' + ((n - 1) * (1570000 / c.n_wos) + (n * 37 + c.shift * 11) % 420) * interval '1 minute' AS opened_at,
         CASE WHEN n % 11 = 0 THEN CASE WHEN c.mid = 1 THEN 36 ELSE 13 END
              WHEN n % 17 = 0 THEN CASE WHEN c.mid = 1 THEN 6 ELSE 20 END
              ELSE (n * 7 + n / 13 + c.shift) % c.n_assets END AS aidx,
         CASE WHEN n % 6 IN (0, 1, 2) THEN 'corrective'
              WHEN n % 6 IN (3, 4) THEN 'preventive'
              WHEN n % 12 = 11 THEN 'predictive'
              ELSE 'inspection' END AS typ,
         CASE WHEN (n * 3 + c.shift) % 10 = 0 THEN 'critical'
              WHEN (n * 3 + c.shift) % 10 IN (1, 2, 3) THEN 'high'
              WHEN (n * 3 + c.shift) % 10 IN (4, 5, 6, 7) THEN 'medium'
              ELSE 'low' END AS prio,
         CASE WHEN n > c.n_wos - 24 THEN (ARRAY['open','in_progress','on_hold','completed'])[1 + n % 4]
              WHEN n % 23 = 0 THEN 'cancelled'
              WHEN n % 41 = 7 THEN 'on_hold'
              ELSE 'completed' END AS st
  FROM generate_series(1, c.n_wos) AS n
) w;

-- parts issued to work orders (none to cancelled ones)
INSERT INTO wo_parts
SELECT row_number() OVER (ORDER BY x.wo_id, x.k),
       x.manufacturer_id, x.wo_id, x.part_id, x.qty, x.issued_at
FROM (
  SELECT w.manufacturer_id, w.wo_id, k,
         c.part_off + 1 + ((w.wo_id - c.wo_off) * 11 + k * 7 + c.shift) % c.n_parts AS part_id,
         1 + ((w.wo_id - c.wo_off) * k + 3) % 4 AS qty,
         w.opened_at + (30 + k * 45) * interval '1 minute' AS issued_at
  FROM work_orders w
  JOIN seed_cfg c ON c.mid = w.manufacturer_id
  CROSS JOIN generate_series(1, 2) AS k
  WHERE w.wo_status <> 'cancelled'
    AND ((k = 1 AND (w.wo_id - c.wo_off) % 3 <> 2) OR (k = 2 AND (w.wo_id - c.wo_off) % 4 = 0))
) x;

-- downtime: one breakdown per corrective work order, one planned stop per second preventive one,
-- plus stoppages with no work order (changeovers, material shortages, power dips, quality holds)
INSERT INTO downtime_events
SELECT row_number() OVER (ORDER BY x.start_ts, x.asset_id),
       x.manufacturer_id, x.asset_id, x.wo_id, x.start_ts, x.end_ts, x.reason_cd, x.is_planned, x.units_lost
FROM (
  SELECT w.manufacturer_id, w.asset_id, w.wo_id,
         w.opened_at - ((w.wo_id * 7) % 50) * interval '1 minute' AS start_ts,
         CASE WHEN w.wo_status = 'open' THEN NULL
              ELSE w.opened_at - ((w.wo_id * 7) % 50) * interval '1 minute' + ((w.wo_id * 29) % 360 + 20) * interval '1 minute' END AS end_ts,
         'breakdown' AS reason_cd, false AS is_planned,
         ((w.wo_id * 29) % 360 + 20) / 3 AS units_lost
  FROM work_orders w WHERE w.wo_type = 'corrective' AND w.wo_status <> 'cancelled'
  UNION ALL
  SELECT w.manufacturer_id, w.asset_id, w.wo_id, w.opened_at,
         w.opened_at + (60 + (w.wo_id * 13) % 180) * interval '1 minute',
         'planned_maint', true, 0
  FROM work_orders w WHERE w.wo_type = 'preventive' AND w.wo_id % 2 = 0 AND w.closed_at IS NOT NULL
  UNION ALL
  SELECT c.mid, c.asset_off + 1 + (n * 7 + c.shift) % c.n_assets, NULL,
         TIMESTAMP '2023-01-05 14:00' + (n * (1560000 / (c.n_wos / 2)) + (n * 53) % 600) * interval '1 minute',
         TIMESTAMP '2023-01-05 14:00' + (n * (1560000 / (c.n_wos / 2)) + (n * 53) % 600) * interval '1 minute'
           + (15 + (n * 17) % 120) * interval '1 minute',
         (ARRAY['changeover','material_shortage','changeover','power_dip','quality_hold'])[1 + (n + c.shift) % 5],
         (n + c.shift) % 5 IN (0, 2),
         CASE WHEN (n + c.shift) % 5 IN (0, 2) THEN 0 ELSE (15 + (n * 17) % 120) / 2 END
  FROM seed_cfg c CROSS JOIN LATERAL generate_series(1, c.n_wos / 2) AS n
) x;

INSERT INTO purchase_orders
SELECT c.po_off + n,
       c.mid,
       c.vendor_off + 1 + (n * 5 + n / 3 + c.shift) % c.n_vendors,
       'PO-' || to_char(DATE '2023-01-09' + (n - 1) * (1085 / c.n_pos) + n % 5, 'YY') || '-' || lpad((c.po_off + n)::text, 4, '0'),
       DATE '2023-01-09' + (n - 1) * (1085 / c.n_pos) + n % 5,
       round((180 + ((n * 7919 + c.shift * 131) % 9400) + ((n * 37) % 100) / 100.0)
             * CASE WHEN n % 10 = 0 THEN 4 ELSE 1 END, 2),
       CASE WHEN n > c.n_pos - 6 + c.shift / 3 * 2 THEN 'open'
            WHEN n % 14 = 3 THEN 'cancelled'
            WHEN n % 9 = 4 THEN 'partially_received'
            ELSE 'received' END,
       DATE '2023-01-09' + (n - 1) * (1085 / c.n_pos) + n % 5 + 7 + (n * 3) % 15,
       CASE WHEN n > c.n_pos - 6 + c.shift / 3 * 2 OR n % 14 = 3 THEN NULL
            ELSE DATE '2023-01-09' + (n - 1) * (1085 / c.n_pos) + n % 5 + 5 + (n * 5) % 21 END
FROM seed_cfg c CROSS JOIN LATERAL generate_series(1, c.n_pos) AS n;

DROP TABLE seed_cfg, seed_class, seed_slot;
