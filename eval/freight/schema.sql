-- Freight logistics / trucking platform: several haulage companies share one schema. Every table
-- except companies carries company_id; companies is the tenant registry and its id is the tenant.
-- Two companies (1 and 2) have data. Rows are deterministic (generate_series and arithmetic on the
-- row number, no random()), with dates spread over 2023-2025. Money is in pounds sterling.
CREATE TABLE companies (
  id integer PRIMARY KEY,
  name text NOT NULL,
  hq_city text NOT NULL,
  vat_no text NOT NULL,
  onboarded_dt date NOT NULL
);
CREATE TABLE depots (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  depot_code text NOT NULL,
  name text NOT NULL,
  city text NOT NULL,
  region text NOT NULL,
  cap_pallets integer NOT NULL,
  opened_dt date NOT NULL
);
CREATE TABLE drivers (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone text,
  lic_class text NOT NULL,
  home_depot_id integer NOT NULL REFERENCES depots (id),
  hired_dt date NOT NULL,
  status text NOT NULL
);
CREATE TABLE trucks (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  reg_plate text NOT NULL,
  fleet_code text,
  make text NOT NULL,
  model text NOT NULL,
  yr integer NOT NULL,
  max_payload_kg integer NOT NULL,
  fuel_type text NOT NULL,
  depot_id integer NOT NULL REFERENCES depots (id),
  in_service boolean NOT NULL
);
CREATE TABLE shippers (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  name text NOT NULL,
  industry text NOT NULL,
  city text NOT NULL,
  contact_email text NOT NULL,
  contact_phone text,
  tier text NOT NULL,
  credit_limit_amt numeric(10, 2) NOT NULL,
  created_dt date NOT NULL
);
CREATE TABLE routes (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  route_code text NOT NULL,
  origin_depot_id integer NOT NULL REFERENCES depots (id),
  dest_city text NOT NULL,
  distance_km integer NOT NULL,
  std_transit_hrs integer NOT NULL
);
CREATE TABLE shipments (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  consignment_no text NOT NULL,
  shipper_id integer NOT NULL REFERENCES shippers (id),
  route_id integer NOT NULL,
  driver_id integer REFERENCES drivers (id),
  truck_id integer,
  origin_depot_id integer NOT NULL REFERENCES depots (id),
  dest_city text NOT NULL,
  service_level text NOT NULL,
  pallet_qty integer NOT NULL,
  weight_kg integer NOT NULL,
  status text NOT NULL,
  booked_dt date NOT NULL,
  pickup_at timestamp,
  due_at timestamp NOT NULL,
  delivered_at timestamp,
  freight_amt numeric(10, 2) NOT NULL
);
CREATE TABLE shipment_stops (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  shipment_id integer NOT NULL REFERENCES shipments (id),
  stop_seq integer NOT NULL,
  stop_type text NOT NULL,
  city text NOT NULL,
  arrived_at timestamp NOT NULL,
  departed_at timestamp
);
CREATE TABLE fuel_purchases (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  truck_id integer NOT NULL,
  driver_id integer REFERENCES drivers (id),
  fuel_dt date NOT NULL,
  station_city text NOT NULL,
  litres_qty numeric(8, 2) NOT NULL,
  ppl numeric(6, 3) NOT NULL,
  amt numeric(10, 2) NOT NULL,
  pay_method text NOT NULL
);
CREATE TABLE incidents (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  shipment_id integer NOT NULL REFERENCES shipments (id),
  reported_at timestamp NOT NULL,
  incident_type text NOT NULL,
  sev integer NOT NULL,
  resolved_dt date,
  claim_amt numeric(10, 2)
);
CREATE TABLE invoices (
  id integer PRIMARY KEY,
  company_id integer NOT NULL REFERENCES companies (id),
  invoice_no text NOT NULL,
  cust_id integer NOT NULL REFERENCES shippers (id),
  issued_dt date NOT NULL,
  due_dt date NOT NULL,
  paid_dt date,
  subtotal numeric(10, 2) NOT NULL,
  vat_amt numeric(10, 2) NOT NULL,
  total numeric(10, 2) NOT NULL,
  status text NOT NULL
);
COMMENT ON COLUMN depots.cap_pallets IS 'Warehouse storage capacity in pallet spaces';
COMMENT ON COLUMN drivers.lic_class IS 'UK driving licence category: C (rigid HGV) or C+E (articulated, tractor and trailer)';
COMMENT ON COLUMN drivers.status IS 'active, on_leave or left (no longer employed)';
COMMENT ON COLUMN trucks.fleet_code IS 'Internal fleet number painted on the cab, e.g. NH-T07; NULL for hired-in or spot-rental vehicles';
COMMENT ON COLUMN trucks.yr IS 'Model year of the vehicle';
COMMENT ON COLUMN trucks.in_service IS 'False when the vehicle is off the road (sold, written off or in long-term repair)';
COMMENT ON COLUMN shippers.tier IS 'Commercial account tier: standard, gold or key_account';
COMMENT ON COLUMN routes.std_transit_hrs IS 'Planned driving time from the origin depot to the destination, in hours';
COMMENT ON COLUMN shipments.route_id IS 'The planned lane (routes.id) the consignment travels on';
COMMENT ON COLUMN shipments.truck_id IS 'The vehicle (trucks.id) assigned to the consignment';
COMMENT ON COLUMN shipments.status IS 'booked (not yet collected), in_transit, delivered or cancelled';
COMMENT ON COLUMN shipments.due_at IS 'Promised delivery time agreed with the shipper';
COMMENT ON COLUMN shipments.freight_amt IS 'Agreed freight charge for the consignment in pounds, excluding VAT';
COMMENT ON COLUMN shipment_stops.stop_type IS 'collection (goods loaded), transfer (cross-dock at a hub) or drop (goods unloaded at the consignee)';
COMMENT ON COLUMN fuel_purchases.truck_id IS 'The vehicle (trucks.id) that was fuelled';
COMMENT ON COLUMN fuel_purchases.ppl IS 'Pump price per litre in pounds';
COMMENT ON COLUMN fuel_purchases.amt IS 'Amount paid for the fill-up in pounds, including VAT';
COMMENT ON COLUMN incidents.sev IS 'Severity from 1 (minor) to 3 (major)';
COMMENT ON COLUMN incidents.claim_amt IS 'Compensation claimed by the shipper in pounds; NULL when no claim was made';
COMMENT ON COLUMN invoices.cust_id IS 'The shipper (shippers.id) that is billed';
COMMENT ON COLUMN invoices.total IS 'Amount billed including VAT (subtotal + vat_amt)';
COMMENT ON COLUMN invoices.status IS 'paid, unpaid (not yet due), overdue or void (cancelled, not to be collected)';

INSERT INTO companies (id, name, hq_city, vat_no, onboarded_dt) VALUES
(1, 'Pennine Haulage Ltd', 'Manchester', 'GB284113907', DATE '2022-09-12'),
(2, 'Severn Valley Freight', 'Gloucester', 'GB517330462', DATE '2023-02-06');

-- Six depots for company 1, four for company 2.
INSERT INTO depots (id, company_id, depot_code, name, city, region, cap_pallets, opened_dt) VALUES
(1, 1, 'MAN1', 'Trafford Park Depot', 'Manchester', 'North West', 4200, DATE '2009-04-01'),
(2, 1, 'LDS1', 'Stourton Depot', 'Leeds', 'Yorkshire', 3100, DATE '2012-10-15'),
(3, 1, 'BHM1', 'Castle Bromwich Depot', 'Birmingham', 'West Midlands', 3800, DATE '2014-06-02'),
(4, 1, 'BRS1', 'Avonmouth Depot', 'Bristol', 'South West', 2600, DATE '2017-03-20'),
(5, 1, 'GLA1', 'Eurocentral Depot', 'Glasgow', 'Scotland', 2900, DATE '2019-08-05'),
(6, 1, 'SOU1', 'Nursling Depot', 'Southampton', 'South East', 1800, DATE '2022-01-10'),
(7, 2, 'GLO1', 'Quedgeley Depot', 'Gloucester', 'South West', 2400, DATE '2011-05-09'),
(8, 2, 'CDF1', 'Wentloog Depot', 'Cardiff', 'Wales', 2000, DATE '2015-09-14'),
(9, 2, 'WOR1', 'Blackpole Depot', 'Worcester', 'West Midlands', 1500, DATE '2018-02-26'),
(10, 2, 'SWA1', 'Llansamlet Depot', 'Swansea', 'Wales', 1200, DATE '2021-11-01');

-- 40 drivers for company 1 (ids 1-40), 26 for company 2 (ids 41-66).
INSERT INTO drivers (id, company_id, first_name, last_name, phone, lic_class, home_depot_id, hired_dt, status)
SELECT i, c.co, n.fn, n.ln,
  CASE WHEN i % 7 = 3 THEN NULL ELSE '07' || (700000000 + (i * 48271) % 299999999)::text END,
  CASE WHEN i % 4 = 1 THEN 'C' ELSE 'C+E' END,
  CASE WHEN c.co = 1 THEN 1 + (i * 5) % 6 ELSE 7 + (i * 3) % 4 END,
  DATE '2012-01-09' + (i * 331) % 4700,
  CASE WHEN i % 13 = 0 THEN 'left' WHEN i % 11 = 0 THEN 'on_leave' ELSE 'active' END
FROM generate_series(1, 66) AS i,
LATERAL (SELECT CASE WHEN i <= 40 THEN 1 ELSE 2 END AS co) AS c,
LATERAL (SELECT
  (ARRAY['Gary', 'Steve', 'Paul', 'Lee', 'Darren', 'Kevin', 'Mark', 'Jason', 'Wayne', 'Craig', 'Dean', 'Michelle', 'Tomasz', 'Piotr', 'Andrzej', 'Karen', 'Ian', 'Shaun', 'Rob', 'Nadia', 'Marek', 'Liam', 'Sean'])[1 + (i * 7) % 23] AS fn,
  (ARRAY['Hughes', 'Kowalski', 'Walker', 'Robinson', 'Bailey', 'Nowak', 'Dixon', 'Brennan', 'Marsh', 'Fisher', 'Barker', 'Holt', 'Kaur', 'Wiśniewski', 'Doyle', 'Parry', 'Lynch', 'Gough', 'Rees'])[1 + (i * 11) % 19] AS ln) AS n;

-- 30 trucks for company 1 (ids 1-30), 20 for company 2 (ids 31-50). Every fifth is hired in (no fleet code).
INSERT INTO trucks (id, company_id, reg_plate, fleet_code, make, model, yr, max_payload_kg, fuel_type, depot_id, in_service)
SELECT i, c.co,
  (ARRAY['MX', 'YK', 'BV', 'WU', 'SF', 'HN', 'CP', 'GL'])[1 + (i * 3) % 8] || lpad(((17 + i * 7) % 58 + 16)::text, 2, '0') || ' '
    || chr(65 + (i * 5) % 26) || chr(65 + (i * 11) % 26) || chr(65 + (i * 17) % 26),
  CASE WHEN i % 5 = 0 THEN NULL
       WHEN c.co = 1 THEN 'PH-T' || lpad(i::text, 2, '0')
       ELSE 'SV-' || lpad((i - 30)::text, 3, '0') END,
  m.make, m.model,
  2014 + (i * 7) % 11,
  CASE WHEN m.model IN ('FL', 'Atego', 'LF', 'TGL') THEN 7500 + (i % 3) * 1000 ELSE 24000 + (i * 700) % 5000 END,
  CASE WHEN i % 9 = 0 THEN 'hvo' WHEN i % 17 = 0 THEN 'electric' WHEN i % 14 = 0 THEN 'lng' ELSE 'diesel' END,
  CASE WHEN c.co = 1 THEN 1 + (i * 7) % 6 ELSE 7 + i % 4 END,
  i % 11 <> 4
FROM generate_series(1, 50) AS i,
LATERAL (SELECT CASE WHEN i <= 30 THEN 1 ELSE 2 END AS co) AS c,
LATERAL (SELECT (ARRAY['Volvo', 'Scania', 'DAF', 'MAN', 'Mercedes-Benz', 'DAF', 'Volvo', 'Iveco', 'Scania', 'DAF', 'Mercedes-Benz', 'MAN'])[1 + (i * 5) % 12] AS make) AS mk,
LATERAL (SELECT mk.make,
  CASE mk.make WHEN 'Volvo' THEN (ARRAY['FH', 'FM', 'FL'])[1 + i % 3]
               WHEN 'Scania' THEN (ARRAY['R450', 'S500', 'P280'])[1 + i % 3]
               WHEN 'DAF' THEN (ARRAY['XF', 'CF', 'LF'])[1 + i % 3]
               WHEN 'MAN' THEN (ARRAY['TGX', 'TGS', 'TGL'])[1 + i % 3]
               WHEN 'Mercedes-Benz' THEN (ARRAY['Actros', 'Arocs', 'Atego'])[1 + i % 3]
               ELSE (ARRAY['S-Way', 'X-Way', 'Eurocargo'])[1 + i % 3] END AS model) AS m;

-- 50 shippers for company 1 (ids 1-50), 34 for company 2 (ids 51-84); some businesses ship with both companies.
INSERT INTO shippers (id, company_id, name, industry, city, contact_email, contact_phone, tier, credit_limit_amt, created_dt)
SELECT i, c.co, b.nm || ' ' || (ARRAY['Ltd', 'plc', 'Ltd', 'Group', 'Ltd', 'UK Ltd'])[1 + (i + c.co) % 6],
  b.ind,
  (ARRAY['Manchester', 'Leeds', 'Sheffield', 'Birmingham', 'Bristol', 'Glasgow', 'Liverpool', 'Nottingham', 'Southampton', 'Derby', 'Stoke-on-Trent', 'Preston', 'Newcastle', 'Cardiff', 'Gloucester'])[1 + (i * 7) % 15],
  'logistics@' || lower(replace(b.nm, ' ', '')) || (ARRAY['.co.uk', '.com', '.co.uk', '.uk'])[1 + c.k % 4],
  CASE WHEN i % 6 = 2 THEN NULL ELSE '0' || (1130000000 + (i * 7919) % 899999999)::text END,
  CASE WHEN i % 10 = 0 THEN 'key_account' WHEN i % 4 = 1 THEN 'gold' ELSE 'standard' END,
  (5000 + (i * 2500) % 45000)::numeric(10, 2),
  DATE '2020-02-03' + (i * 97) % 1400
FROM generate_series(1, 84) AS i,
LATERAL (SELECT CASE WHEN i <= 50 THEN 1 ELSE 2 END AS co, 1 + (i * 13) % 50 AS k) AS c,
LATERAL (SELECT
  (ARRAY['Pennine Foods', 'Brightwater Drinks', 'Castleford Timber', 'Apex Components', 'Meridian Pharma', 'Northcote Chemicals', 'Voltline Electronics', 'Hartley Home Stores', 'Greenvale Dairies', 'Kestrel Packaging', 'Ironbridge Steel', 'Oakmere Furniture', 'Bluebell Bakeries', 'Summit Motor Parts', 'Riverside Brewing', 'Thornton Paints', 'Cobalt Tech', 'Farrow Fashion', 'Highfield Farms', 'Marlow Paper', 'Wexford Builders Merchants', 'Silverline Tools', 'Ashby Garden Centres', 'Clearwater Bottling', 'Redhill Ceramics', 'Granite Aggregates', 'Lumen Lighting', 'Harrow Pet Supplies', 'Beacon Medical', 'Calder Valley Plastics', 'Drummond Whisky', 'Elmfield Cosmetics', 'Fenwick Tyres', 'Goldcrest Confectionery', 'Holloway Glass', 'Ingram Office Supplies', 'Jarrow Marine Parts', 'Kingsley Appliances', 'Larkspur Textiles', 'Moorland Mineral Water', 'Nettleton Fertilisers', 'Orchard Fresh Produce', 'Pryce Industrial Gases', 'Quayside Books', 'Rowntree Cabling', 'Stanhope Flooring', 'Tarn Outdoor Gear', 'Ullswater Meats', 'Vantage Auto Glass', 'Wolds Grain'])[c.k] AS nm,
  (ARRAY['food & beverage', 'food & beverage', 'construction', 'automotive', 'pharmaceuticals', 'chemicals', 'electronics', 'retail', 'food & beverage', 'paper & packaging', 'construction', 'retail', 'food & beverage', 'automotive', 'food & beverage', 'chemicals', 'electronics', 'retail', 'food & beverage', 'paper & packaging', 'construction', 'retail', 'retail', 'food & beverage', 'construction', 'construction', 'electronics', 'retail', 'pharmaceuticals', 'chemicals', 'food & beverage', 'retail', 'automotive', 'food & beverage', 'construction', 'paper & packaging', 'automotive', 'electronics', 'retail', 'food & beverage', 'chemicals', 'food & beverage', 'chemicals', 'paper & packaging', 'electronics', 'construction', 'retail', 'food & beverage', 'automotive', 'food & beverage'])[c.k] AS ind) AS b;

-- 20 lanes for company 1 (ids 1-20), 12 for company 2 (ids 21-32).
INSERT INTO routes (id, company_id, route_code, origin_depot_id, dest_city, distance_km, std_transit_hrs)
SELECT i, c.co, d.depot_code || '-' || upper(left(x.dest, 3)) || lpad(i::text, 2, '0'), d.id, x.dest, x.km, greatest(2, round(x.km / 65.0)::integer)
FROM generate_series(1, 32) AS i,
LATERAL (SELECT CASE WHEN i <= 20 THEN 1 ELSE 2 END AS co) AS c,
LATERAL (SELECT CASE WHEN c.co = 1 THEN 1 + (i - 1) % 6 ELSE 7 + (i - 21) % 4 END AS depot) AS o
JOIN depots AS d ON d.id = o.depot,
LATERAL (SELECT
  (ARRAY['London', 'Newcastle', 'Liverpool', 'Edinburgh', 'Norwich', 'Plymouth', 'Nottingham', 'Hull', 'Aberdeen', 'Cambridge', 'Exeter', 'Carlisle', 'Leicester', 'Sheffield', 'Reading', 'Dover', 'Inverness', 'Swindon', 'York', 'Felixstowe', 'Oxford', 'Milton Keynes'])[1 + (i * 5) % 22] AS dest,
  60 + (i * 137) % 540 AS km) AS x;

-- 1500 consignments for company 1 (ids 1-1500), 900 for company 2 (ids 1501-2400), booked 2023-2025.
INSERT INTO shipments (id, company_id, consignment_no, shipper_id, route_id, driver_id, truck_id, origin_depot_id, dest_city, service_level,
  pallet_qty, weight_kg, status, booked_dt, pickup_at, due_at, delivered_at, freight_amt)
SELECT k.i, k.co,
  CASE WHEN k.co = 1 THEN 'PH' ELSE 'SV' END || '-' || lpad((100000 + k.i * 37)::text, 7, '0'),
  CASE WHEN k.co = 1 THEN CASE WHEN k.j % 4 = 0 THEN 1 + (k.j / 4) % 8 ELSE 1 + (k.j * 7) % 46 END
       ELSE CASE WHEN k.j % 3 = 0 THEN 60 + (k.j / 3) % 5 ELSE 51 + (k.j * 11) % 34 END END,
  r.id,
  CASE WHEN st.status IN ('booked', 'cancelled') AND k.j % 2 = 0 THEN NULL
       WHEN k.co = 1 THEN 1 + (k.j * 11 + k.j / 7) % 40 ELSE 41 + (k.j * 5) % 26 END,
  CASE WHEN st.status IN ('booked', 'cancelled') AND k.j % 2 = 0 THEN NULL
       WHEN k.co = 1 THEN 1 + (k.j * 13 + k.j / 5) % 30 ELSE 31 + (k.j * 3) % 20 END,
  r.origin_depot_id, r.dest_city, sl.lvl,
  p.pallets, p.pallets * (180 + (k.j * 29) % 520),
  st.status, b.booked_dt,
  CASE WHEN st.status IN ('in_transit', 'delivered') THEN t.planned_pickup + ((k.j * 17) % 50 - 10) * INTERVAL '1 minute' END,
  t.planned_pickup + (r.std_transit_hrs + CASE sl.lvl WHEN 'express' THEN 2 WHEN 'economy' THEN 24 ELSE 8 END) * INTERVAL '1 hour',
  CASE WHEN st.status = 'delivered' THEN
    t.planned_pickup + r.std_transit_hrs * INTERVAL '1 hour'
      + CASE WHEN k.j % 9 = 0 OR (k.j % 14 = 0 AND sl.lvl = 'express') THEN (CASE sl.lvl WHEN 'express' THEN 2 WHEN 'economy' THEN 24 ELSE 8 END + 1 + (k.j * 7) % 30) * INTERVAL '1 hour'
             ELSE ((k.j * 23) % 240) * INTERVAL '1 minute' END
  END,
  round((r.distance_km * (1.45 + (k.j % 5) * 0.05) + p.pallets * 14.5) * CASE sl.lvl WHEN 'express' THEN 1.35 WHEN 'economy' THEN 0.85 ELSE 1 END, 2)
FROM generate_series(1, 2400) AS g(i),
LATERAL (SELECT g.i AS i, CASE WHEN g.i <= 1500 THEN 1 ELSE 2 END AS co, CASE WHEN g.i <= 1500 THEN g.i ELSE g.i - 1500 END AS j) AS k,
LATERAL (SELECT CASE WHEN k.co = 1 AND k.j % 6 = 1 THEN (ARRAY[1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 1])[1 + (k.j / 6) % 12]
                          WHEN k.co = 1 THEN 1 + (k.j * 7 + k.j / 11) % 20 WHEN k.j % 5 = 0 THEN 21 + (k.j / 5) % 3 ELSE 21 + (k.j * 5) % 12 END AS rid) AS rr
JOIN routes AS r ON r.id = rr.rid,
LATERAL (SELECT CASE WHEN k.co = 1 THEN DATE '2023-01-02' + (k.j * 37) % 1094 ELSE DATE '2023-03-01' + (k.j * 41) % 1035 END AS booked_dt) AS b,
LATERAL (SELECT CASE WHEN k.j % 8 = 3 THEN 'express' WHEN k.j % 6 = 5 THEN 'economy' ELSE 'standard' END AS lvl) AS sl,
LATERAL (SELECT 1 + (k.j * 7) % (CASE WHEN k.co = 1 THEN 26 ELSE 22 END) AS pallets) AS p,
LATERAL (SELECT b.booked_dt + (1 + k.j % 3) + (5 + (k.j * 3) % 12) * INTERVAL '1 hour' AS planned_pickup) AS t,
LATERAL (SELECT CASE WHEN k.j % 23 = 0 OR (k.co = 2 AND k.j % 17 = 0) THEN 'cancelled'
                     WHEN b.booked_dt >= DATE '2025-12-24' THEN 'booked'
                     WHEN b.booked_dt >= DATE '2025-12-17' THEN 'in_transit'
                     ELSE 'delivered' END AS status) AS st;

-- Stops: a collection and a drop for every consignment that was picked up; every fifth goes via a cross-dock transfer.
INSERT INTO shipment_stops (id, company_id, shipment_id, stop_seq, stop_type, city, arrived_at, departed_at)
SELECT row_number() OVER (ORDER BY s.id, x.seq), s.company_id, s.id, x.seq, x.stop_type, x.city, x.arrived_at, x.departed_at
FROM shipments AS s
JOIN depots AS d ON d.id = s.origin_depot_id,
LATERAL (
  SELECT 1 AS seq, 'collection' AS stop_type, d.city AS city, s.pickup_at - (20 + s.id % 40) * INTERVAL '1 minute' AS arrived_at, s.pickup_at AS departed_at
  UNION ALL
  SELECT 2, 'transfer', (ARRAY['Daventry', 'Warrington', 'Crick', 'Doncaster', 'Avonmouth'])[1 + (s.id / 5) % 5],
    s.pickup_at + ((coalesce(s.delivered_at, s.due_at) - s.pickup_at) / 2), s.pickup_at + ((coalesce(s.delivered_at, s.due_at) - s.pickup_at) / 2) + (30 + s.id % 60) * INTERVAL '1 minute'
  WHERE s.id % 5 = 0 AND s.status = 'delivered'
  UNION ALL
  SELECT CASE WHEN s.id % 5 = 0 THEN 3 ELSE 2 END, 'drop', s.dest_city, s.delivered_at - (15 + s.id % 25) * INTERVAL '1 minute', s.delivered_at + (25 + s.id % 50) * INTERVAL '1 minute'
  WHERE s.status = 'delivered'
) AS x
WHERE s.pickup_at IS NOT NULL;

-- Fuel: 1200 fill-ups for company 1 (ids 1-1200), 650 for company 2 (ids 1201-1850).
INSERT INTO fuel_purchases (id, company_id, truck_id, driver_id, fuel_dt, station_city, litres_qty, ppl, amt, pay_method)
SELECT k.i, k.co, CASE WHEN tr.tid IN (17, 34) THEN tr.tid + 1 ELSE tr.tid END,
  CASE WHEN k.j % 19 = 0 THEN NULL WHEN k.co = 1 THEN 1 + (k.j * 7) % 40 ELSE 41 + (k.j * 3) % 26 END,
  f.fuel_dt,
  (ARRAY['Warrington', 'Leeds', 'Birmingham', 'Bristol', 'Carlisle', 'Glasgow', 'Southampton', 'Doncaster', 'Cardiff', 'Gloucester', 'Daventry', 'Preston'])[1 + (k.j * 5 + k.co * 8) % 12],
  l.litres, pr.ppl, round(l.litres * pr.ppl, 2),
  CASE WHEN k.j % 10 = 7 THEN 'company_card' WHEN k.j % 25 = 0 THEN 'cash' ELSE 'fuel_card' END
FROM generate_series(1, 1850) AS g(i),
LATERAL (SELECT g.i AS i, CASE WHEN g.i <= 1200 THEN 1 ELSE 2 END AS co, CASE WHEN g.i <= 1200 THEN g.i ELSE g.i - 1200 END AS j) AS k,
LATERAL (SELECT CASE WHEN k.co = 1 THEN 1 + (k.j * 7 + k.j / 30) % 30 ELSE 31 + (k.j * 3) % 20 END AS tid) AS tr,
LATERAL (SELECT CASE WHEN k.co = 1 THEN DATE '2023-01-01' + (k.j * 29) % 1095 ELSE DATE '2023-03-01' + (k.j * 31) % 1036 END AS fuel_dt) AS f,
LATERAL (SELECT (120 + (k.j * 37) % 330 + ((k.j * 13) % 100) / 100.0)::numeric(8, 2) AS litres) AS l,
LATERAL (SELECT (CASE WHEN f.fuel_dt < DATE '2024-01-01' THEN 1.520 WHEN f.fuel_dt < DATE '2025-01-01' THEN 1.480 ELSE 1.430 END
                 + ((k.j * 7) % 90) / 1000.0 + CASE WHEN k.co = 2 THEN 0.02 ELSE 0 END)::numeric(6, 3) AS ppl) AS pr;

-- Delivery exceptions against roughly one consignment in eight.
INSERT INTO incidents (id, company_id, shipment_id, reported_at, incident_type, sev, resolved_dt, claim_amt)
SELECT row_number() OVER (ORDER BY s.id), s.company_id, s.id,
  coalesce(s.delivered_at, s.pickup_at + INTERVAL '5 hours'),
  it.t,
  CASE WHEN it.t IN ('accident', 'lost') THEN 3 WHEN it.t IN ('damage', 'short_delivery') THEN 1 + s.id % 3 ELSE 1 + s.id % 2 END,
  CASE WHEN s.id % 17 = 0 THEN NULL ELSE (coalesce(s.delivered_at, s.pickup_at) + (1 + s.id % 21) * INTERVAL '1 day')::date END,
  CASE WHEN it.t IN ('damage', 'lost', 'short_delivery') AND s.id % 3 <> 0 THEN round(s.freight_amt * (0.4 + (s.id % 7) / 10.0) + 35 * s.pallet_qty, 2)
       WHEN it.t = 'accident' THEN round(250 + (s.id * 31) % 2000 + ((s.id * 7) % 100) / 100.0, 2) END
FROM shipments AS s,
LATERAL (SELECT CASE WHEN s.delivered_at > s.due_at THEN 'delay'
                     ELSE (ARRAY['damage', 'short_delivery', 'refused', 'damage', 'wrong_address', 'accident', 'damage', 'lost', 'refused', 'short_delivery'])[1 + (s.id / 8) % 10] END AS t) AS it
WHERE s.pickup_at IS NOT NULL
  AND ((s.delivered_at > s.due_at AND s.id % 2 = 0) OR s.id % 8 = 4 OR (s.company_id = 2 AND s.id % 10 = 1) OR (s.shipper_id = 6 AND s.id % 8 = 1));

-- Monthly invoices: one per shipper per month in which it had consignments delivered, issued on the 3rd of the next month.
INSERT INTO invoices (id, company_id, invoice_no, cust_id, issued_dt, due_dt, paid_dt, subtotal, vat_amt, total, status)
SELECT q.n, q.company_id,
  CASE WHEN q.company_id = 1 THEN 'PH-INV-' ELSE 'SVF/' END || to_char(q.mon, 'YYMM') || '-' || lpad(q.n::text, 5, '0'),
  q.shipper_id, q.issued, q.issued + 30,
  CASE WHEN q.n % 19 = 0 AND q.issued < DATE '2024-01-01' THEN NULL
       WHEN q.issued >= DATE '2025-11-20' AND q.n % 3 <> 0 THEN NULL
       WHEN q.n % 29 = 0 THEN NULL
       ELSE q.issued + 12 + (q.n * 7) % 40 END,
  q.sub, round(q.sub * 0.2, 2), q.sub + round(q.sub * 0.2, 2),
  CASE WHEN q.n % 19 = 0 AND q.issued < DATE '2024-01-01' THEN 'void'
       WHEN q.issued >= DATE '2025-11-20' AND q.n % 3 <> 0 THEN 'unpaid'
       WHEN q.n % 29 = 0 THEN 'overdue'
       ELSE 'paid' END
FROM (
  SELECT row_number() OVER (ORDER BY date_trunc('month', s.delivered_at), s.company_id, s.shipper_id)::integer AS n,
    s.company_id, s.shipper_id, date_trunc('month', s.delivered_at)::date AS mon,
    (date_trunc('month', s.delivered_at) + INTERVAL '1 month')::date + 2 AS issued,
    sum(s.freight_amt) AS sub
  FROM shipments AS s
  WHERE s.status = 'delivered'
  GROUP BY s.company_id, s.shipper_id, date_trunc('month', s.delivered_at)
) AS q;
