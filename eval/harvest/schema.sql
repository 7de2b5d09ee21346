-- Harvest: farm-management platform shared by several agricultural cooperatives.
-- Each cooperative is a tenant (table `cooperatives`); every other table carries `coop_id`.
-- Member farms register fields, record plantings of crop varieties, weigh harvests in at the
-- co-op silo, buy inputs (seed, fertiliser, sprays, fuel) on account, hire shared machinery,
-- and receive advances, final settlements and dividends from the grain the co-op sells on.

CREATE TABLE cooperatives (
    id           integer PRIMARY KEY,
    name         text NOT NULL,
    region       text NOT NULL,
    founded_dt   date NOT NULL,
    vat_no       text
);

CREATE TABLE members (
    id             integer PRIMARY KEY,
    coop_id        integer NOT NULL REFERENCES cooperatives(id),
    member_no      text NOT NULL,
    farm_name      text NOT NULL,
    owner_name     text NOT NULL,
    county         text NOT NULL,
    joined_dt      date NOT NULL,
    status         text NOT NULL,
    share_capital  numeric(10,2) NOT NULL,
    email          text
);
COMMENT ON TABLE members IS 'Member farms of the cooperative (one row per farm business).';
COMMENT ON COLUMN members.member_no IS 'Membership number printed on weighbridge tickets and statements.';
COMMENT ON COLUMN members.status IS 'active, suspended (trading stopped pending review) or left (resigned membership).';
COMMENT ON COLUMN members.joined_dt IS 'Date the farm was admitted as a member.';
COMMENT ON COLUMN members.share_capital IS 'Capital the member has paid into the co-op; dividends are paid on it.';

CREATE TABLE fields (
    id          integer PRIMARY KEY,
    coop_id     integer NOT NULL REFERENCES cooperatives(id),
    member_id   integer NOT NULL REFERENCES members(id),
    field_name  text NOT NULL,
    hectares    numeric(8,2) NOT NULL,
    soil_type   text NOT NULL,
    irrigated   boolean NOT NULL DEFAULT false,
    grid_ref    text
);
COMMENT ON TABLE fields IS 'Fields / plots farmed by member farms.';
COMMENT ON COLUMN fields.hectares IS 'Cropped area of the field in hectares.';
COMMENT ON COLUMN fields.soil_type IS 'Dominant soil on the field: clay, loam, sandy, silt or peat.';
COMMENT ON COLUMN fields.grid_ref IS 'Ordnance Survey grid reference of the field gate, when known.';

CREATE TABLE crops (
    id                integer PRIMARY KEY,
    coop_id           integer NOT NULL REFERENCES cooperatives(id),
    crop_name         text NOT NULL,
    category          text NOT NULL,
    season_type       char(1) NOT NULL,
    std_moisture_pct  numeric(4,1) NOT NULL,
    base_price_t      numeric(10,2) NOT NULL
);
COMMENT ON COLUMN crops.category IS 'cereal, oilseed or pulse.';
COMMENT ON COLUMN crops.season_type IS 'W = winter crop drilled in autumn, S = spring-sown crop.';
COMMENT ON COLUMN crops.std_moisture_pct IS 'Moisture content the co-op buys at; wetter loads pay a drying charge.';
COMMENT ON COLUMN crops.base_price_t IS 'Pool reference price per tonne used for advances.';

CREATE TABLE varieties (
    id             integer PRIMARY KEY,
    coop_id        integer NOT NULL REFERENCES cooperatives(id),
    crop_id        integer NOT NULL REFERENCES crops(id),
    variety_name   text NOT NULL,
    seed_supplier  text,
    maturity_days  integer NOT NULL
);
COMMENT ON COLUMN varieties.seed_supplier IS 'Merchant the seed is usually bought from; empty for farm-saved seed.';
COMMENT ON COLUMN varieties.maturity_days IS 'Typical days from drilling to harvest.';

CREATE TABLE plantings (
    id              integer PRIMARY KEY,
    coop_id         integer NOT NULL REFERENCES cooperatives(id),
    field_id        integer NOT NULL REFERENCES fields(id),
    variety_id      integer NOT NULL,
    season          integer NOT NULL,
    sown_dt         date,
    area_ha         numeric(8,2) NOT NULL,
    seed_rate_kg_ha numeric(6,1),
    status          text NOT NULL
);
COMMENT ON TABLE plantings IS 'A crop put into a field for one harvest year.';
COMMENT ON COLUMN plantings.variety_id IS 'Variety drilled (id in varieties).';
COMMENT ON COLUMN plantings.season IS 'Harvest year the crop belongs to.';
COMMENT ON COLUMN plantings.area_ha IS 'Hectares actually drilled, can be less than the whole field.';
COMMENT ON COLUMN plantings.seed_rate_kg_ha IS 'Seed drilled in kg per hectare.';
COMMENT ON COLUMN plantings.status IS 'planned, sown, harvested or failed.';

CREATE TABLE harvest_intakes (
    id             integer PRIMARY KEY,
    coop_id        integer NOT NULL REFERENCES cooperatives(id),
    planting_id    integer NOT NULL REFERENCES plantings(id),
    ticket_no      text NOT NULL,
    intake_ts      timestamp NOT NULL,
    gross_kg       integer NOT NULL,
    tare_kg        integer NOT NULL,
    net_kg         integer NOT NULL,
    moisture_pct   numeric(4,1) NOT NULL,
    grade          text NOT NULL,
    silo_code      text NOT NULL,
    drying_charge  numeric(10,2)
);
COMMENT ON TABLE harvest_intakes IS 'Loads weighed in over the weighbridge at the co-op silo.';
COMMENT ON COLUMN harvest_intakes.net_kg IS 'Weight of grain delivered (gross minus the empty trailer).';
COMMENT ON COLUMN harvest_intakes.tare_kg IS 'Weight of the empty tractor and trailer.';
COMMENT ON COLUMN harvest_intakes.silo_code IS 'Silo or storage bin the load was tipped into.';
COMMENT ON COLUMN harvest_intakes.grade IS 'A, B, C, feed or rejected.';
COMMENT ON COLUMN harvest_intakes.drying_charge IS 'Charged to the member when the load is wetter than the standard moisture.';

CREATE TABLE deliveries (
    id           integer PRIMARY KEY,
    coop_id      integer NOT NULL REFERENCES cooperatives(id),
    contract_ref text NOT NULL,
    buyer_name   text NOT NULL,
    crop_id      integer NOT NULL,
    dispatch_dt  date NOT NULL,
    qty_t        numeric(8,2) NOT NULL,
    price_per_t  numeric(10,2) NOT NULL,
    total        numeric(10,2) NOT NULL,
    haulier      text,
    status       text NOT NULL
);
COMMENT ON TABLE deliveries IS 'Outbound lorry loads of pooled grain sold by the co-op to merchants, millers and maltsters.';
COMMENT ON COLUMN deliveries.crop_id IS 'Crop sold (id in crops).';
COMMENT ON COLUMN deliveries.qty_t IS 'Tonnes on the lorry.';
COMMENT ON COLUMN deliveries.total IS 'Invoice value of the load in pounds (qty_t x price_per_t).';
COMMENT ON COLUMN deliveries.status IS 'scheduled, dispatched, invoiced or paid.';

CREATE TABLE input_purchases (
    id            integer PRIMARY KEY,
    coop_id       integer NOT NULL REFERENCES cooperatives(id),
    member_id     integer NOT NULL REFERENCES members(id),
    purchase_dt   date NOT NULL,
    product_type  text NOT NULL,
    product_desc  text NOT NULL,
    qty           numeric(10,2) NOT NULL,
    unit          text NOT NULL,
    amt           numeric(10,2) NOT NULL,
    vat_amt       numeric(10,2) NOT NULL,
    on_account    boolean NOT NULL,
    invoice_no    text
);
COMMENT ON TABLE input_purchases IS 'Seed, fertiliser, agrochemicals and fuel bought by members through the co-op.';
COMMENT ON COLUMN input_purchases.amt IS 'Net price in pounds, excluding VAT.';
COMMENT ON COLUMN input_purchases.vat_amt IS 'VAT charged on top of amt (only red diesel carries VAT).';
COMMENT ON COLUMN input_purchases.on_account IS 'True when charged to the member account and deducted from the next payment.';

CREATE TABLE equipment (
    id           integer PRIMARY KEY,
    coop_id      integer NOT NULL REFERENCES cooperatives(id),
    equip_code   text NOT NULL,
    equip_name   text NOT NULL,
    equip_type   text NOT NULL,
    make         text,
    daily_rate   numeric(10,2) NOT NULL,
    acquired_dt  date NOT NULL,
    active       boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE equipment IS 'Machinery owned by the co-op and hired out to members.';
COMMENT ON COLUMN equipment.active IS 'False when the machine has been sold or scrapped.';
COMMENT ON COLUMN equipment.daily_rate IS 'Hire charge per day without driver.';

CREATE TABLE equipment_hires (
    id             integer PRIMARY KEY,
    coop_id        integer NOT NULL REFERENCES cooperatives(id),
    equipment_id   integer NOT NULL REFERENCES equipment(id),
    member_id      integer NOT NULL,
    start_dt       date NOT NULL,
    end_dt         date,
    days           integer NOT NULL,
    operator_incl  boolean NOT NULL,
    hire_amt       numeric(10,2) NOT NULL,
    status         text NOT NULL
);
COMMENT ON COLUMN equipment_hires.member_id IS 'Member farm hiring the machine (id in members).';
COMMENT ON COLUMN equipment_hires.operator_incl IS 'Co-op driver supplied with the machine (35% surcharge).';
COMMENT ON COLUMN equipment_hires.status IS 'booked, out, returned or cancelled (cancelled hires are not charged).';

CREATE TABLE member_payments (
    id           integer PRIMARY KEY,
    coop_id      integer NOT NULL REFERENCES cooperatives(id),
    member_id    integer NOT NULL REFERENCES members(id),
    pay_dt       date NOT NULL,
    pay_type     text NOT NULL,
    season       integer,
    gross_total  numeric(10,2) NOT NULL,
    deductions   numeric(10,2) NOT NULL,
    net_amt      numeric(10,2) NOT NULL,
    bacs_ref     text
);
COMMENT ON TABLE member_payments IS 'Money paid out to member farms.';
COMMENT ON COLUMN member_payments.pay_type IS 'advance (on intake), final (pool settlement), dividend (on share capital).';
COMMENT ON COLUMN member_payments.season IS 'Harvest year the payment relates to; empty for dividends.';
COMMENT ON COLUMN member_payments.gross_total IS 'Amount earned before deductions, in pounds.';
COMMENT ON COLUMN member_payments.net_amt IS 'Amount actually transferred to the member (gross_total minus deductions).';
COMMENT ON COLUMN member_payments.deductions IS 'Input purchases on account, drying and haulage taken off the payment.';

-- ---------------------------------------------------------------------------
-- Seed data
-- ---------------------------------------------------------------------------

INSERT INTO cooperatives VALUES
 (1, 'Wye Valley Growers Co-operative', 'West Midlands', '2009-04-01', 'GB 284 1177 03'),
 (2, 'Fenland Arable Co-op', 'East of England', '1998-09-15', 'GB 391 5520 84');

-- members: coop 1 ids 1-40, coop 2 ids 101-125
INSERT INTO members (id, coop_id, member_no, farm_name, owner_name, county, joined_dt, status, share_capital, email)
SELECT g, 1, 'WV' || lpad(g::text, 3, '0'), fn,
       (ARRAY['Tom','Sarah','David','Helen','James','Rachel','Gareth','Emma','Rhys','Claire',
              'Mark','Lucy','Owen','Jane','Peter','Kate','Huw','Anna','Richard','Beth'])[1 + (g * 7) % 20]
       || ' ' ||
       (ARRAY['Powell','Morgan','Price','Watkins','Bevan','Pritchard','Jones','Lewis','Davies','Hughes',
              'Griffiths','Parry','Vaughan','Probert','Williams','Meredith','Gwillim','Baskerville','Preece','Tanner',
              'Harris','Jenkins','Lloyd','Rees','Thomas'])[1 + (g * 11) % 25],
       (ARRAY['Herefordshire','Worcestershire','Gloucestershire','Herefordshire','Monmouthshire'])[1 + (g * 3) % 5],
       date '2010-01-04' + (g * 173) % 5700,
       CASE WHEN g IN (7, 19, 33) THEN 'suspended' WHEN g IN (12, 28) THEN 'left' ELSE 'active' END,
       (1000 + ((g * 37) % 9) * 250)::numeric(10,2),
       CASE WHEN g % 6 = 0 THEN NULL ELSE lower(replace(fn, ' ', '')) || '@farmmail.co.uk' END
FROM unnest(ARRAY['Brookside Farm','Hill End Farm','Lower Court','Upper Meend Farm','Oakfield Farm',
                  'Ashgrove Farm','The Grange','Perrystone Farm','Kings Caple Farm','Hoarwithy Farm',
                  'Carey Mill Farm','Fawley Court Farm','Much Marcle Farm','Yatton Farm','Dymock Farm',
                  'Kempley Farm','Bromsash Farm','Linton Farm','Aston Ingham Farm','Gorsley Farm',
                  'Weston Farm','Ross Meadows','Glewstone Court','Goodrich Farm','Welsh Bicknor Farm',
                  'Llangrove Farm','Marstow Farm','Peterstow Farm','Sellack Farm','Harewood End Farm',
                  'Orcop Farm','Garway Hill Farm','Kilpeck Farm','Wormbridge Farm','Madley Farm',
                  'Tyberton Farm','Eaton Bishop Farm','Clehonger Farm','Allensmore Farm','Thruxton Farm'])
     WITH ORDINALITY AS t0(fn, g0) CROSS JOIN LATERAL (SELECT g0::int AS g) gi;

INSERT INTO members (id, coop_id, member_no, farm_name, owner_name, county, joined_dt, status, share_capital, email)
SELECT 100 + g, 2, 'FA-' || (4400 + g * 3), fn,
       (ARRAY['John','Susan','Robert','Mary','Andrew','Julie','Neil','Karen','Simon','Alison'])[1 + (g * 3) % 10]
       || ' ' ||
       (ARRAY['Fisher','Sutton','Cooper','Wright','Naylor','Gotobed','Papworth','Ives','Bailey','Marsh',
              'Cross','Leach','Ward'])[1 + (g * 5) % 13],
       (ARRAY['Cambridgeshire','Lincolnshire','Norfolk'])[1 + g % 3],
       date '1999-03-01' + (g * 409) % 9000,
       CASE WHEN g IN (9, 21) THEN 'left' WHEN g = 14 THEN 'suspended' ELSE 'active' END,
       (2000 + ((g * 13) % 7) * 500)::numeric(10,2),
       CASE WHEN g % 4 = 0 THEN NULL ELSE lower(replace(fn, ' ', '')) || '@fenmail.co.uk' END
FROM unnest(ARRAY['Black Drove Farm','Engine Farm','Sedge Fen Farm','Padnal Farm','Burnt Fen Farm',
                  'Shippea Hill Farm','Manea Farm','Coveney Farm','Wardy Hill Farm','Mepal Fen Farm',
                  'Sutton Gault Farm','Haddenham Farm','Aldreth Farm','Chittering Farm','Stretham Farm',
                  'Wicken Fen Farm','Upware Farm','Soham Mere Farm','Isleham Farm','Prickwillow Farm',
                  'Queen Adelaide Farm','Littleport Farm','Welney Farm','Ten Mile Bank Farm','Hilgay Farm'])
     WITH ORDINALITY AS t0(fn, g0) CROSS JOIN LATERAL (SELECT g0::int AS g) gi;

-- fields: 2-4 per member
INSERT INTO fields (id, coop_id, member_id, field_name, hectares, soil_type, irrigated, grid_ref)
SELECT (CASE WHEN m.coop_id = 1 THEN 0 ELSE 1000 END)
         + row_number() OVER (PARTITION BY m.coop_id ORDER BY m.id, k),
       m.coop_id, m.id,
       CASE WHEN m.coop_id = 1 THEN
         (ARRAY['Long Meadow','Top Piece','Church Field','Bottom Ground','Pool Field','Barn Close',
                'Twenty Acre','Far Hill','Orchard Piece','Lane Field','Cider Mill Field','Rough Ground'])[1 + (m.id * 3 + k * 7) % 12]
       ELSE
         (ARRAY['North Drove','Engine Field','Forty Acre','Wash Field','Middle Fen','Bank Piece',
                'Lode Field','Dyke Field','Black Piece','Hundred Acre','Mill Drove','Sluice Field'])[1 + (m.id * 5 + k * 7) % 12]
       END,
       round((3.5 + ((m.id * 17 + k * 29) % 41) * 0.9 + CASE WHEN m.coop_id = 2 THEN 12 ELSE 0 END)::numeric, 2),
       CASE WHEN m.coop_id = 1 THEN (ARRAY['clay','loam','sandy','silt'])[1 + (m.id + k * 2) % 4]
            ELSE (ARRAY['peat','silt','clay','loam'])[1 + (m.id + k) % 4] END,
       (m.id * k) % 7 = 0,
       CASE WHEN (m.id + k) % 5 = 0 THEN NULL
            ELSE (CASE WHEN m.coop_id = 1 THEN 'SO ' ELSE 'TL ' END)
                 || (4000 + (m.id * 37 + k * 11) % 900) || ' ' || (2000 + (m.id * 53 + k * 7) % 900) END
FROM members m
CROSS JOIN LATERAL generate_series(1, 2 + m.id % 3) AS k;

INSERT INTO crops VALUES
 (1, 1, 'Winter Wheat',   'cereal',  'W', 15.0, 182.00),
 (2, 1, 'Spring Barley',  'cereal',  'S', 14.5, 171.00),
 (3, 1, 'Winter Barley',  'cereal',  'W', 15.0, 158.00),
 (4, 1, 'Oats',           'cereal',  'S', 14.5, 149.00),
 (5, 1, 'Oilseed Rape',   'oilseed', 'W',  9.0, 395.00),
 (6, 1, 'Field Beans',    'pulse',   'S', 14.0, 228.00),
 (7, 1, 'Peas',           'pulse',   'S', 14.0, 246.00),
 (8, 1, 'Linseed',        'oilseed', 'S',  9.0, 412.00),
 (11, 2, 'Winter Wheat',  'cereal',  'W', 15.0, 185.00),
 (12, 2, 'Spring Barley', 'cereal',  'S', 14.5, 175.00),
 (13, 2, 'Oilseed Rape',  'oilseed', 'W',  9.0, 401.00),
 (14, 2, 'Field Beans',   'pulse',   'S', 14.0, 231.00),
 (15, 2, 'Oats',          'cereal',  'S', 14.5, 152.00);

INSERT INTO varieties VALUES
 (1, 1, 1, 'Skyfall',     'Openfield', 320),
 (2, 1, 1, 'Extase',      'Agrii',     318),
 (3, 1, 1, 'Graham',      'Frontier',  322),
 (4, 1, 1, 'KWS Zyatt',   NULL,        325),
 (5, 1, 2, 'Laureate',    'Openfield', 135),
 (6, 1, 2, 'Diablo',      'Agrii',     138),
 (7, 1, 2, 'Planet',      NULL,        140),
 (8, 1, 3, 'KWS Orwell',  'Frontier',  300),
 (9, 1, 3, 'Craft',       'Agrii',     298),
 (10, 1, 4, 'Mascani',    'Senova',    145),
 (11, 1, 4, 'Gerald',     NULL,        142),
 (12, 1, 5, 'Aurelia',    'Frontier',  315),
 (13, 1, 5, 'Campus',     'Agrii',     312),
 (14, 1, 5, 'DK Exsteel', 'Openfield', 318),
 (15, 1, 6, 'Tundra',     'Senova',    160),
 (16, 1, 6, 'Vertigo',    NULL,        165),
 (17, 1, 7, 'Kameleon',   'Frontier',  120),
 (18, 1, 8, 'Batsman',    'Senova',    130),
 (101, 2, 11, 'Skyfall',  'Openfield', 320),
 (102, 2, 11, 'Crusoe',   'Frontier',  321),
 (103, 2, 11, 'Champion', 'Agrii',     323),
 (104, 2, 12, 'Laureate', 'Openfield', 135),
 (105, 2, 12, 'Propino',  NULL,        137),
 (106, 2, 13, 'Aurelia',  'Frontier',  315),
 (107, 2, 13, 'Acacia',   'Agrii',     316),
 (108, 2, 14, 'Tundra',   'Senova',    160),
 (109, 2, 14, 'Lynx',     NULL,        162),
 (110, 2, 15, 'Mascani',  'Senova',    145);

-- plantings: one per field per harvest year 2023-2025 (some fields fallow), plus planned 2026 crops
INSERT INTO plantings (id, coop_id, field_id, variety_id, season, sown_dt, area_ha, seed_rate_kg_ha, status)
SELECT row_number() OVER (ORDER BY x.coop_id, x.field_id, x.season)
         + CASE WHEN x.coop_id = 1 THEN 0 ELSE 5000 END,
       x.coop_id, x.field_id, x.variety_id, x.season,
       CASE WHEN x.season = 2026 THEN NULL
            WHEN c.season_type = 'W' THEN make_date(x.season - 1, 9, 8) + (x.field_id * 7 + x.season) % 45
            ELSE make_date(x.season, 3, 4) + (x.field_id * 11 + x.season) % 50 END,
       round(x.hectares * CASE WHEN x.field_id % 4 = 0 THEN 0.8 ELSE 1 END, 2),
       CASE WHEN x.season = 2026 THEN NULL
            WHEN c.category = 'cereal' THEN 140 + (x.field_id * 13 + x.season) % 60
            WHEN c.category = 'oilseed' THEN 3.5 + ((x.field_id + x.season) % 20) * 0.1
            ELSE 180 + (x.field_id * 7 + x.season) % 70 END,
       CASE WHEN x.season = 2026 THEN 'planned'
            WHEN (x.field_id * 7 + x.season) % 29 = 0 THEN 'failed'
            WHEN x.season = 2025 AND x.field_id % 9 = 0 THEN 'sown'
            ELSE 'harvested' END
FROM (
  SELECT f.coop_id, f.id AS field_id, f.hectares, s AS season,
         CASE WHEN f.coop_id = 1 THEN 1 + (f.id * 5 + s * 7) % 18
              ELSE 101 + (f.id * 3 + s * 7) % 10 END AS variety_id
  FROM fields f
  CROSS JOIN generate_series(2023, 2026) AS s
  WHERE (f.id + s) % 8 <> 0
    AND (s < 2026 OR f.id % 3 = 0)
) x
JOIN varieties v ON v.id = x.variety_id
JOIN crops c ON c.id = v.crop_id;

-- silo intakes: one row per trailer load, roughly area x yield / 12 t per load
INSERT INTO harvest_intakes (id, coop_id, planting_id, ticket_no, intake_ts, gross_kg, tare_kg, net_kg,
                             moisture_pct, grade, silo_code, drying_charge)
SELECT y.id, y.coop_id, y.planting_id,
       (CASE WHEN y.coop_id = 1 THEN 'WV-T' ELSE 'FA-' END) || lpad(y.id::text, 5, '0'),
       y.ts, y.gross, y.tare, y.gross - y.tare, y.moist, y.grade, y.silo,
       CASE WHEN y.moist <= y.std THEN NULL
            ELSE round((y.gross - y.tare) / 1000.0 * (y.moist - y.std) * 1.6, 2) END
FROM (
  SELECT row_number() OVER (ORDER BY p.coop_id, p.id, k) AS id,
         p.coop_id, p.id AS planting_id,
         (make_date(p.season, CASE WHEN c.season_type = 'W' THEN 7 ELSE 8 END, 12) + (p.id * 3) % 40 + (k - 1) / 6)::timestamp
           + interval '1 hour' * (7 + ((k - 1) % 6) * 2 + p.id % 2) + interval '1 minute' * ((p.id * k * 7) % 60) AS ts,
         CASE WHEN c.category = 'oilseed' THEN 12500 ELSE 15500 END + (p.id * 37 + k * 113) % 9000 AS gross,
         6500 + ((p.id + k) % 8) * 150 AS tare,
         CASE WHEN c.category = 'oilseed' THEN round(7.5 + ((p.id * 7 + k * 13) % 45) * 0.1, 1)
              ELSE round(12.5 + ((p.id * 7 + k * 13) % 70) * 0.1, 1) END AS moist,
         c.std_moisture_pct AS std,
         CASE WHEN (p.id * 3 + k * 7) % 20 < 10 THEN 'A'
              WHEN (p.id * 3 + k * 7) % 20 < 16 THEN 'B'
              WHEN (p.id * 3 + k * 7) % 20 < 18 THEN 'C'
              WHEN (p.id * 3 + k * 7) % 20 = 18 THEN 'feed'
              ELSE 'rejected' END AS grade,
         CASE WHEN p.coop_id = 1 THEN (ARRAY['S1','S2','S3','BIN4'])[1 + (p.id + k) % 4]
              ELSE (ARRAY['A','B','C'])[1 + (p.id + k) % 3] END AS silo
  FROM plantings p
  JOIN varieties v ON v.id = p.variety_id
  JOIN crops c ON c.id = v.crop_id
  CROSS JOIN LATERAL generate_series(1, greatest(2, round(p.area_ha *
      CASE c.category WHEN 'cereal' THEN 7.0 + (p.id % 5) * 0.4
                      WHEN 'oilseed' THEN 3.2 + (p.id % 4) * 0.2
                      ELSE 4.0 + (p.id % 3) * 0.3 END / 12.0)::int)) AS k
  WHERE p.status = 'harvested'
) y;

-- outbound sales: 230 loads for coop 1, 140 for coop 2
INSERT INTO deliveries (id, coop_id, contract_ref, buyer_name, crop_id, dispatch_dt, qty_t, price_per_t, total, haulier, status)
SELECT z.id, z.coop_id, z.cref, z.buyer, z.crop_id, z.dt, z.qty, z.price, round(z.qty * z.price, 2), z.haulier,
       CASE WHEN z.dt > date '2025-12-05' THEN 'scheduled'
            WHEN z.dt > date '2025-10-20' THEN 'dispatched'
            WHEN z.g % 11 = 0 OR z.dt > date '2025-09-01' THEN 'invoiced'
            ELSE 'paid' END
FROM (
  SELECT CASE WHEN t.coop_id = 1 THEN g ELSE 1000 + g END AS id, t.coop_id, g,
         CASE WHEN t.coop_id = 1 THEN 'WV-C' || (2300 + g) ELSE 'FAC/' || (810 + g * 2) END AS cref,
         CASE WHEN t.coop_id = 1
              THEN (ARRAY['Openfield','Frontier Agriculture','Warburtons','Muntons','Boortmalt','Cargill','ADM Agriculture'])[1 + (g * 3) % 7]
              ELSE (ARRAY['Openfield','Gleadell','Heygates','Cargill','Frontier Agriculture'])[1 + (g * 2) % 5] END AS buyer,
         cr.id AS crop_id,
         date '2023-01-05' + (g * 389) % 1090 AS dt,
         round(12 + ((g * 29) % 180) * 0.25, 2) AS qty,
         cr.base_price_t + ((g * 13) % 40) - 15
           + CASE WHEN (date '2023-01-05' + (g * 389) % 1090) < date '2024-01-01' THEN 22 ELSE 0 END AS price,
         CASE WHEN g % 5 = 0 THEN NULL
              ELSE (ARRAY['Jenkins Haulage','Severn Freight','Own transport','A. Bevan & Sons'])[1 + (g * 7) % 4] END AS haulier
  FROM (VALUES (1, 230), (2, 140)) AS t(coop_id, n)
  CROSS JOIN LATERAL generate_series(1, t.n) AS g
  JOIN crops cr ON cr.coop_id = t.coop_id
   AND cr.id = CASE WHEN t.coop_id = 1
                    THEN (ARRAY[1,1,2,1,5,3,2,6,1,7,2,4,1,5,8,3])[1 + (g * 7) % 16]
                    ELSE (ARRAY[11,11,12,13,11,14,12,15,11])[1 + (g * 5) % 9] END
) z;

-- input purchases: 720 for coop 1, 380 for coop 2
INSERT INTO input_purchases (id, coop_id, member_id, purchase_dt, product_type, product_desc, qty, unit, amt, vat_amt, on_account, invoice_no)
SELECT w.id, w.coop_id, w.member_id, w.dt, w.ptype,
       CASE w.ptype
         WHEN 'seed' THEN (ARRAY['Skyfall C2 wheat seed','Laureate barley seed','Aurelia OSR seed','Tundra bean seed','Mascani oat seed'])[1 + w.g % 5]
         WHEN 'fertiliser' THEN (ARRAY['Ammonium nitrate 34.5%N','Urea 46%N','NPK 20-10-10','Triple superphosphate','Muriate of potash'])[1 + (w.g * 3) % 5]
         WHEN 'agrochemical' THEN (ARRAY['Glyphosate 360','Herbicide pre-em pack','Fungicide T2 pack','Slug pellets','Growth regulator'])[1 + (w.g * 2) % 5]
         ELSE 'Red diesel' END,
       w.qty,
       CASE w.ptype WHEN 'seed' THEN 'kg' WHEN 'fertiliser' THEN 't' WHEN 'agrochemical' THEN 'l' ELSE 'l' END,
       round(w.qty * w.unit_price, 2),
       CASE WHEN w.ptype = 'fuel' THEN round(w.qty * w.unit_price * 0.05, 2) ELSE 0 END,
       w.g % 3 <> 0,
       CASE WHEN w.g % 10 = 0 THEN NULL ELSE (CASE WHEN w.coop_id = 1 THEN 'WVI-' ELSE 'FAI-' END) || (60000 + w.g * 3) END
FROM (
  SELECT CASE WHEN t.coop_id = 1 THEN g ELSE 5000 + g END AS id, t.coop_id, g,
         t.base + 1 + (g * 13) % t.nm AS member_id,
         date '2023-01-03' + (g * 577) % 1090 AS dt,
         (ARRAY['seed','fertiliser','fertiliser','agrochemical','fuel','fertiliser','seed','agrochemical','fuel'])[1 + (g * 5) % 9] AS ptype,
         CASE (ARRAY['seed','fertiliser','fertiliser','agrochemical','fuel','fertiliser','seed','agrochemical','fuel'])[1 + (g * 5) % 9]
           WHEN 'seed' THEN 250 + (g * 17) % 40 * 25
           WHEN 'fertiliser' THEN 2 + (g * 7) % 24
           WHEN 'agrochemical' THEN 20 + (g * 11) % 30 * 5
           ELSE 400 + (g * 19) % 20 * 100 END::numeric(10,2) AS qty,
         CASE (ARRAY['seed','fertiliser','fertiliser','agrochemical','fuel','fertiliser','seed','agrochemical','fuel'])[1 + (g * 5) % 9]
           WHEN 'seed' THEN 0.62 + (g % 5) * 0.04
           WHEN 'fertiliser' THEN 285 + (g % 7) * 15
           WHEN 'agrochemical' THEN 6.5 + (g % 6) * 2.25
           ELSE 0.71 + (g % 4) * 0.03 END AS unit_price
  FROM (VALUES (1, 720, 0, 40), (2, 380, 100, 25)) AS t(coop_id, n, base, nm)
  CROSS JOIN LATERAL generate_series(1, t.n) AS g
) w;

INSERT INTO equipment VALUES
 (1, 1, 'WV-TR01', 'John Deere 6155R tractor',        'tractor',  'John Deere', 210.00, '2019-03-12', true),
 (2, 1, 'WV-TR02', 'Massey Ferguson 7718 tractor',    'tractor',  'Massey Ferguson', 195.00, '2020-06-01', true),
 (3, 1, 'WV-TR03', 'Fendt 724 tractor',               'tractor',  'Fendt', 240.00, '2023-02-20', true),
 (4, 1, 'WV-CB01', 'Claas Lexion 760 combine',        'combine',  'Claas', 950.00, '2018-07-01', true),
 (5, 1, 'WV-CB02', 'New Holland CR8.90 combine',      'combine',  'New Holland', 1020.00, '2022-06-15', true),
 (6, 1, 'WV-DR01', 'Vaderstad Rapid 4m drill',        'drill',    'Vaderstad', 165.00, '2017-08-20', true),
 (7, 1, 'WV-DR02', 'Horsch Pronto 6DC drill',         'drill',    'Horsch', 230.00, '2021-08-05', true),
 (8, 1, 'WV-SP01', 'Amazone UX 24m trailed sprayer',  'sprayer',  'Amazone', 145.00, '2019-02-11', true),
 (9, 1, 'WV-SP02', 'Househam Harrier sprayer',        'sprayer',  'Househam', 260.00, '2024-01-22', true),
 (10, 1, 'WV-TL01', 'Marston 14t grain trailer',      'trailer',  'Marston', 55.00, '2016-05-30', true),
 (11, 1, 'WV-TL02', 'Bailey 16t grain trailer',       'trailer',  'Bailey', 62.00, '2021-07-14', true),
 (12, 1, 'WV-TL03', 'Richard Western 12t trailer',    'trailer',  'Richard Western', 48.00, '2015-06-01', false),
 (13, 1, 'WV-BL01', 'Kuhn baler',                     'baler',    'Kuhn', 120.00, '2020-05-18', true),
 (14, 1, 'WV-CT01', 'Vaderstad Carrier 5m cultivator','cultivator', NULL, 135.00, '2022-09-01', true),
 (101, 2, 'FA-TR1', 'Case Puma 185 tractor',          'tractor',  'Case IH', 215.00, '2020-02-10', true),
 (102, 2, 'FA-TR2', 'John Deere 6R 250 tractor',      'tractor',  'John Deere', 260.00, '2023-03-01', true),
 (103, 2, 'FA-CB1', 'Claas Lexion 8700 combine',      'combine',  'Claas', 1150.00, '2021-07-01', true),
 (104, 2, 'FA-DR1', 'Horsch Sprinter 6m drill',       'drill',    'Horsch', 210.00, '2019-09-01', true),
 (105, 2, 'FA-SP1', 'Bateman RB35 sprayer',           'sprayer',  'Bateman', 275.00, '2022-03-15', true),
 (106, 2, 'FA-TL1', 'Herron 18t trailer',             'trailer',  'Herron', 70.00, '2018-06-01', true),
 (107, 2, 'FA-TL2', 'Herron 18t trailer',             'trailer',  'Herron', 70.00, '2018-06-01', true),
 (108, 2, 'FA-BT1', 'Sugar beet cleaner loader',      'loader',   NULL, 180.00, '2016-10-01', false);

-- machinery hires: 310 for coop 1, 160 for coop 2
INSERT INTO equipment_hires (id, coop_id, equipment_id, member_id, start_dt, end_dt, days, operator_incl, hire_amt, status)
SELECT h.id, h.coop_id, h.equipment_id, h.member_id, h.start_dt,
       CASE WHEN h.status IN ('booked', 'out', 'cancelled') THEN NULL ELSE h.start_dt + h.days - 1 END,
       h.days, h.op,
       CASE WHEN h.status = 'cancelled' THEN 0
            ELSE round(h.days * e.daily_rate * CASE WHEN h.op THEN 1.35 ELSE 1 END, 2) END,
       h.status
FROM (
  SELECT CASE WHEN t.coop_id = 1 THEN g ELSE 1000 + g END AS id, t.coop_id, g,
         t.ebase + 1 + (g * 5) % t.ne AS equipment_id,
         t.mbase + 1 + (g * 17) % (t.nm - 4) AS member_id,
         date '2023-02-01' + (g * 277) % 1060 AS start_dt,
         1 + (g / 3) % 5 AS days,
         g % 4 = 1 AS op,
         CASE WHEN date '2023-02-01' + (g * 277) % 1060 > date '2025-12-20' THEN 'booked'
              WHEN g % 17 = 3 THEN 'cancelled'
              WHEN date '2023-02-01' + (g * 277) % 1060 > date '2025-12-08' THEN 'out'
              ELSE 'returned' END AS status
  FROM (VALUES (1, 310, 0, 14, 0, 40), (2, 160, 100, 8, 100, 25)) AS t(coop_id, n, ebase, ne, mbase, nm)
  CROSS JOIN LATERAL generate_series(1, t.n) AS g
) h
JOIN equipment e ON e.id = h.equipment_id;

-- payments to members: advances (autumn), final pool settlements (spring), dividends (December)
INSERT INTO member_payments (id, coop_id, member_id, pay_dt, pay_type, season, gross_total, deductions, net_amt, bacs_ref)
SELECT row_number() OVER (ORDER BY q.coop_id, q.pay_dt, q.member_id, q.pay_type)
         + CASE WHEN q.coop_id = 1 THEN 0 ELSE 10000 END,
       q.coop_id, q.member_id, q.pay_dt, q.pay_type, q.season, q.gross,
       round(q.gross * q.ded_pct / 100.0, 2),
       q.gross - round(q.gross * q.ded_pct / 100.0, 2),
       CASE WHEN (q.member_id + q.yr) % 9 = 0 THEN NULL
            ELSE 'BACS' || to_char(q.pay_dt, 'YYMMDD') || lpad(q.member_id::text, 3, '0') END
FROM (
  SELECT m.coop_id, m.id AS member_id, 'advance' AS pay_type, s AS season, s AS yr,
         make_date(s, 10, 14) + m.id % 10 AS pay_dt,
         (2000 + (m.id * 397 + s * 31) % 9000)::numeric(10,2) AS gross,
         (m.id * 7 + s) % 15 AS ded_pct
  FROM members m CROSS JOIN generate_series(2023, 2025) s
  WHERE m.status <> 'left' OR s = 2023
  UNION ALL
  SELECT m.coop_id, m.id, 'final', s, s,
         make_date(s + 1, 3, 18) + m.id % 8,
         (1500 + (m.id * 263 + s * 47) % 7000)::numeric(10,2),
         (m.id * 3 + s) % 12
  FROM members m CROSS JOIN generate_series(2022, 2024) s
  WHERE m.status <> 'left' OR s = 2022
  UNION ALL
  SELECT m.coop_id, m.id, 'dividend', NULL, y,
         make_date(y, 12, 16),
         round(m.share_capital * CASE y WHEN 2023 THEN 0.04 WHEN 2024 THEN 0.035 ELSE 0.045 END, 2),
         0
  FROM members m CROSS JOIN generate_series(2023, 2025) y
  WHERE m.status = 'active'
) q;
