-- Production and sales platform shared by several independent UK craft breweries.
-- Each brewery keeps its own beers (recipes), fermentation/brite tanks, ingredient stock,
-- brew batches, packaging runs, quality tests, trade customers (pubs, bars, shops, distributors),
-- orders with order lines, and deliveries on the platform.
-- breweries is the tenant registry; every other table carries brewery_id (the tenant).
-- Volumes are in hectolitres (hl) unless stated; money is in GBP, ex VAT unless stated.

CREATE TABLE breweries (
    id            integer PRIMARY KEY,
    name          text NOT NULL,
    city          text NOT NULL,
    duty_reg_no   varchar(12),
    onboarded_dt  date NOT NULL
);
COMMENT ON TABLE breweries IS 'Breweries (tenants) using the platform.';
COMMENT ON COLUMN breweries.duty_reg_no IS 'HMRC alcohol duty registration number.';

CREATE TABLE beers (
    id            integer PRIMARY KEY,
    brewery_id    integer NOT NULL REFERENCES breweries(id),
    beer_cd       varchar(8) NOT NULL,
    beer_nm       text NOT NULL,
    style         text NOT NULL,
    abv           numeric(3,1) NOT NULL,
    ibu           smallint,
    is_core       boolean NOT NULL DEFAULT true,
    vegan_flg     boolean NOT NULL DEFAULT true,
    launch_dt     date NOT NULL,
    retired_dt    date
);
COMMENT ON TABLE beers IS 'Beers / recipes the brewery makes. One row per recipe.';
COMMENT ON COLUMN beers.beer_cd IS 'Short product code printed on pump clips and keg collars.';
COMMENT ON COLUMN beers.abv IS 'Alcohol by volume in percent (target strength of the recipe).';
COMMENT ON COLUMN beers.ibu IS 'International bitterness units.';
COMMENT ON COLUMN beers.is_core IS 'true = core (all-year) range; false = seasonal or special one-off.';
COMMENT ON COLUMN beers.vegan_flg IS 'Recipe is vegan-friendly (no isinglass finings, no lactose).';
COMMENT ON COLUMN beers.retired_dt IS 'Date the recipe was discontinued; empty while still in production.';

CREATE TABLE tanks (
    id            integer PRIMARY KEY,
    brewery_id    integer NOT NULL REFERENCES breweries(id),
    tank_cd       varchar(6) NOT NULL,
    tank_type     text NOT NULL,
    capacity_hl   numeric(6,1) NOT NULL,
    install_dt    date NOT NULL,
    last_cip_dt   date,
    is_active     boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE tanks IS 'Brewery vessels: fermenters (FV), brite tanks (BT) and conditioning tanks (CT).';
COMMENT ON COLUMN tanks.tank_cd IS 'Label painted on the vessel, e.g. FV3.';
COMMENT ON COLUMN tanks.tank_type IS 'fermenter, brite or conditioning.';
COMMENT ON COLUMN tanks.capacity_hl IS 'Working capacity in hectolitres.';
COMMENT ON COLUMN tanks.last_cip_dt IS 'Last clean-in-place date.';
COMMENT ON COLUMN tanks.is_active IS 'false when the vessel is decommissioned / out of service.';

CREATE TABLE ingredients (
    id            integer PRIMARY KEY,
    brewery_id    integer NOT NULL REFERENCES breweries(id),
    ingr_nm       text NOT NULL,
    ingr_type     text NOT NULL,
    supplier_nm   text NOT NULL,
    uom           varchar(4) NOT NULL,
    unit_cost     numeric(8,2) NOT NULL,
    stock_qty     numeric(10,2) NOT NULL,
    reorder_lvl   numeric(10,2) NOT NULL,
    is_organic    boolean NOT NULL DEFAULT false,
    last_recv_dt  date
);
COMMENT ON TABLE ingredients IS 'Raw materials held in the brewery store, with current stock on hand.';
COMMENT ON COLUMN ingredients.ingr_type IS 'malt, hops, yeast or adjunct.';
COMMENT ON COLUMN ingredients.uom IS 'Unit of measure for stock_qty and unit_cost: kg or pkt (yeast packs).';
COMMENT ON COLUMN ingredients.unit_cost IS 'Purchase cost per unit of measure in GBP.';
COMMENT ON COLUMN ingredients.stock_qty IS 'Quantity currently on hand, in uom.';
COMMENT ON COLUMN ingredients.reorder_lvl IS 'Re-order point: buy more when stock falls below this.';
COMMENT ON COLUMN ingredients.last_recv_dt IS 'Date the last delivery from the supplier was booked in.';

CREATE TABLE brew_batches (
    id             integer PRIMARY KEY,
    brewery_id     integer NOT NULL REFERENCES breweries(id),
    batch_no       varchar(14) NOT NULL,
    beer_id        integer NOT NULL REFERENCES beers(id),
    tank_id        integer,
    brew_dt        date NOT NULL,
    brewer_nm      text NOT NULL,
    target_vol_hl  numeric(6,1) NOT NULL,
    actual_vol_hl  numeric(6,1),
    og             numeric(5,3),
    fg             numeric(5,3),
    status         text NOT NULL,
    dump_rsn       text
);
COMMENT ON TABLE brew_batches IS 'Brews: one row per batch brewed (or planned) of a beer.';
COMMENT ON COLUMN brew_batches.tank_id IS 'Fermenter (tanks.id) the batch was fermented in.';
COMMENT ON COLUMN brew_batches.brew_dt IS 'Brew day (mash and boil).';
COMMENT ON COLUMN brew_batches.target_vol_hl IS 'Planned volume into the fermenter, hl.';
COMMENT ON COLUMN brew_batches.actual_vol_hl IS 'Volume actually collected into the fermenter, hl; empty for planned batches.';
COMMENT ON COLUMN brew_batches.og IS 'Original gravity measured on brew day.';
COMMENT ON COLUMN brew_batches.fg IS 'Final gravity at the end of fermentation.';
COMMENT ON COLUMN brew_batches.status IS 'planned, fermenting, conditioning, packaged or dumped (poured away).';
COMMENT ON COLUMN brew_batches.dump_rsn IS 'Why a dumped batch was poured away.';

CREATE TABLE packaging_runs (
    id            integer PRIMARY KEY,
    brewery_id    integer NOT NULL REFERENCES breweries(id),
    batch_id      integer NOT NULL REFERENCES brew_batches(id),
    pkg_dt        date NOT NULL,
    pkg_fmt       text NOT NULL,
    units_qty     integer NOT NULL,
    waste_l       numeric(7,1) NOT NULL DEFAULT 0,
    bbe_dt        date NOT NULL,
    line_cd       varchar(8) NOT NULL
);
COMMENT ON TABLE packaging_runs IS 'Packaging runs: beer from a batch filled into kegs, casks or cans.';
COMMENT ON COLUMN packaging_runs.pkg_fmt IS 'keg30 (30 l keg), keg50 (50 l keg), firkin (9 gallon cask, 40.9 l) or can440 (440 ml can).';
COMMENT ON COLUMN packaging_runs.units_qty IS 'Number of containers filled (kegs, casks or individual cans).';
COMMENT ON COLUMN packaging_runs.waste_l IS 'Beer lost during the run, litres.';
COMMENT ON COLUMN packaging_runs.bbe_dt IS 'Best before date printed on the containers.';
COMMENT ON COLUMN packaging_runs.line_cd IS 'Filling line used: KEGLINE, CASKLINE, CANLINE or MOBILE (contract mobile canner).';

CREATE TABLE quality_tests (
    id            integer PRIMARY KEY,
    brewery_id    integer NOT NULL REFERENCES breweries(id),
    batch_id      integer NOT NULL,
    test_ts       timestamp NOT NULL,
    test_type     text NOT NULL,
    result_val    numeric(8,3),
    pass_flg      boolean NOT NULL,
    tested_by     text NOT NULL,
    notes         text
);
COMMENT ON TABLE quality_tests IS 'QC / lab tests carried out on brew batches.';
COMMENT ON COLUMN quality_tests.batch_id IS 'Brew batch (brew_batches.id) the sample came from.';
COMMENT ON COLUMN quality_tests.test_type IS 'gravity, ph, micro (microbiological contamination), abv or sensory (tasting panel).';
COMMENT ON COLUMN quality_tests.result_val IS 'Measured value: gravity, pH, colony count, ABV % or panel score out of 10.';
COMMENT ON COLUMN quality_tests.pass_flg IS 'true when the result is within specification.';

CREATE TABLE customers (
    id               integer PRIMARY KEY,
    brewery_id       integer NOT NULL REFERENCES breweries(id),
    acct_cd          varchar(10) NOT NULL,
    cust_nm          text NOT NULL,
    cust_type        text NOT NULL,
    city             text NOT NULL,
    acct_tier        text NOT NULL,
    credit_limit_amt numeric(10,2) NOT NULL,
    opened_dt        date NOT NULL,
    is_active        boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE customers IS 'Trade customers (pubs, bars, restaurants, bottle shops, distributors) that buy from the brewery.';
COMMENT ON COLUMN customers.acct_cd IS 'Trade account code used on invoices.';
COMMENT ON COLUMN customers.cust_type IS 'pub, bar, restaurant, bottle_shop or distributor.';
COMMENT ON COLUMN customers.acct_tier IS 'standard, gold or key_account (largest accounts, get volume discounts).';
COMMENT ON COLUMN customers.credit_limit_amt IS 'Maximum unpaid balance allowed on the account, GBP.';
COMMENT ON COLUMN customers.is_active IS 'false when the account is closed.';

CREATE TABLE orders (
    id            integer PRIMARY KEY,
    brewery_id    integer NOT NULL REFERENCES breweries(id),
    order_no      varchar(14) NOT NULL,
    cust_id       integer NOT NULL REFERENCES customers(id),
    order_dt      date NOT NULL,
    req_dlv_dt    date NOT NULL,
    status        text NOT NULL,
    channel       text NOT NULL,
    net_amt       numeric(10,2) NOT NULL DEFAULT 0,
    vat_amt       numeric(10,2) NOT NULL DEFAULT 0,
    paid_flg      boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE orders IS 'Trade orders placed by customers.';
COMMENT ON COLUMN orders.req_dlv_dt IS 'Delivery date the customer asked for.';
COMMENT ON COLUMN orders.status IS 'draft, confirmed, dispatched, delivered or cancelled.';
COMMENT ON COLUMN orders.channel IS 'How the order came in: rep (sales rep visit), phone or web (online trade shop).';
COMMENT ON COLUMN orders.net_amt IS 'Order value before VAT (sum of the order lines), GBP.';
COMMENT ON COLUMN orders.vat_amt IS 'VAT charged on the order, GBP.';
COMMENT ON COLUMN orders.paid_flg IS 'Invoice for the order has been paid.';

CREATE TABLE order_lines (
    id            integer PRIMARY KEY,
    brewery_id    integer NOT NULL REFERENCES breweries(id),
    order_id      integer NOT NULL REFERENCES orders(id),
    line_no       smallint NOT NULL,
    beer_id       integer NOT NULL REFERENCES beers(id),
    pkg_fmt       text NOT NULL,
    qty           integer NOT NULL,
    unit_price    numeric(8,2) NOT NULL,
    disc_pct      numeric(4,1) NOT NULL DEFAULT 0,
    line_amt      numeric(10,2) NOT NULL
);
COMMENT ON TABLE order_lines IS 'Lines of an order: which beer, in which format, how many.';
COMMENT ON COLUMN order_lines.pkg_fmt IS 'keg30, keg50, firkin or can440 (cans are sold in cases of 24).';
COMMENT ON COLUMN order_lines.qty IS 'Number of kegs or casks, or number of 24-can cases.';
COMMENT ON COLUMN order_lines.unit_price IS 'List price per keg / cask / case, GBP ex VAT.';
COMMENT ON COLUMN order_lines.disc_pct IS 'Discount given on the line, percent.';
COMMENT ON COLUMN order_lines.line_amt IS 'qty * unit_price less discount, GBP ex VAT.';

CREATE TABLE deliveries (
    id             integer PRIMARY KEY,
    brewery_id     integer NOT NULL REFERENCES breweries(id),
    order_id       integer NOT NULL,
    sched_dt       date NOT NULL,
    delivered_at   timestamp,
    status         text NOT NULL,
    driver_nm      text NOT NULL,
    van_reg        varchar(8) NOT NULL,
    empties_back   smallint NOT NULL DEFAULT 0,
    dist_km        numeric(6,1) NOT NULL
);
COMMENT ON TABLE deliveries IS 'Delivery drops of orders to customers (an order can have a failed attempt before it is delivered).';
COMMENT ON COLUMN deliveries.order_id IS 'Order (orders.id) being delivered.';
COMMENT ON COLUMN deliveries.sched_dt IS 'Date the drop was scheduled for.';
COMMENT ON COLUMN deliveries.delivered_at IS 'When the drop was signed for; empty unless delivered.';
COMMENT ON COLUMN deliveries.status IS 'out_for_delivery, delivered or failed (customer closed / refused).';
COMMENT ON COLUMN deliveries.empties_back IS 'Empty kegs and casks collected from the customer on the drop.';
COMMENT ON COLUMN deliveries.dist_km IS 'Road distance from the brewery, km.';

-- ---------------------------------------------------------------------------
-- Seed data (deterministic)
-- ---------------------------------------------------------------------------

INSERT INTO breweries (id, name, city, duty_reg_no, onboarded_dt) VALUES
 (1, 'Kettle Hill Brewing Co', 'Sheffield', 'XKAD0041235', '2022-10-03'),
 (2, 'Old Forge Ales',         'Bristol',   'XKAD0077810', '2022-12-12'),
 (3, 'Saltmarsh Brewery',      'Norwich',   'XKAD0102944', '2023-02-20');

-- beers: tenant 1 ids 1-18, tenant 2 ids 19-30, tenant 3 ids 31-40
INSERT INTO beers (id, brewery_id, beer_cd, beer_nm, style, abv, ibu, is_core, vegan_flg, launch_dt, retired_dt) VALUES
 (1,  1, 'KH-PAL', 'Steel City Pale',     'Pale Ale',       4.2, 35, true,  true,  '2019-03-01', NULL),
 (2,  1, 'KH-IPA', 'Kettle Hill IPA',     'IPA',            6.2, 60, true,  true,  '2019-03-01', NULL),
 (3,  1, 'KH-STT', 'Furnace Stout',       'Stout',          5.0, 40, true,  false, '2019-09-14', NULL),
 (4,  1, 'KH-BIT', 'Don Valley Bitter',   'Best Bitter',    3.9, 30, true,  false, '2019-03-01', NULL),
 (5,  1, 'KH-LAG', 'Hillside Lager',      'Lager',          4.5, 22, true,  true,  '2020-05-01', NULL),
 (6,  1, 'KH-NEI', 'Haze Runner',         'NEIPA',          6.5, 45, true,  true,  '2021-02-12', NULL),
 (7,  1, 'KH-SES', 'Short Walk Session',  'Session IPA',    3.8, 38, true,  true,  '2021-06-01', NULL),
 (8,  1, 'KH-POR', 'Peak Porter',         'Porter',         5.4, 32, true,  false, '2020-10-01', NULL),
 (9,  1, 'KH-WHT', 'Cloud Wheat',         'Wheat Beer',     4.8, 15, false, true,  '2022-05-20', NULL),
 (10, 1, 'KH-DIP', 'Double Trouble',      'Double IPA',     8.2, 80, false, true,  '2022-08-05', NULL),
 (11, 1, 'KH-SOU', 'Rhubarb Sour',        'Sour',           4.0,  8, false, false, '2023-04-01', NULL),
 (12, 1, 'KH-HAR', 'Harvest Ale',         'Amber Ale',      5.2, 36, false, true,  '2021-09-01', NULL),
 (13, 1, 'KH-WWM', 'Winter Warmer',       'Old Ale',        7.0, 30, false, false, '2021-11-01', NULL),
 (14, 1, 'KH-IMP', 'Imperial Furnace',    'Imperial Stout', 10.5, 65, false, false, '2022-12-01', NULL),
 (15, 1, 'KH-GFP', 'Gluten Free Pale',    'Pale Ale',       4.5, 33, true,  true,  '2024-04-15', NULL),
 (16, 1, 'KH-LOW', 'Lightweight',         'Low Alcohol',    0.5, 20, true,  true,  '2025-01-20', NULL),
 (17, 1, 'KH-SAI', 'Farmhouse Saison',    'Saison',         5.8, 25, false, true,  '2022-06-01', '2024-09-30'),
 (18, 1, 'KH-RED', 'Redline Red',         'Red Ale',        4.9, 40, true,  true,  '2020-02-01', '2023-12-31'),
 (19, 2, 'OF-PAL', 'Forge Pale',          'Pale Ale',       4.0, 32, true,  true,  '2018-04-01', NULL),
 (20, 2, 'OF-IPA', 'Anvil IPA',           'IPA',            5.9, 55, true,  true,  '2018-04-01', NULL),
 (21, 2, 'OF-STT', 'Blacksmith Stout',    'Stout',          4.8, 38, true,  false, '2018-10-01', NULL),
 (22, 2, 'OF-BIT', 'Bellows Bitter',      'Best Bitter',    4.1, 31, true,  false, '2018-04-01', NULL),
 (23, 2, 'OF-HAR', 'Harvest Ale',         'Amber Ale',      5.0, 34, false, true,  '2020-09-01', NULL),
 (24, 2, 'OF-LAG', 'Hillside Lager',       'Lager',          4.6, 20, true,  true,  '2019-06-01', NULL),
 (25, 2, 'OF-SES', 'Spark Session',       'Session IPA',    3.6, 35, true,  true,  '2021-03-01', NULL),
 (26, 2, 'OF-WWM', 'Winter Warmer',       'Old Ale',        6.5, 28, false, false, '2019-11-01', NULL),
 (27, 2, 'OF-SOU', 'Quench Sour',         'Sour',           4.2, 10, false, true,  '2022-06-01', NULL),
 (28, 2, 'OF-DIP', 'Tempered DIPA',       'Double IPA',     8.0, 75, false, true,  '2021-10-01', NULL),
 (29, 2, 'OF-POR', 'Iron Porter',         'Porter',         5.2, 30, true,  false, '2019-01-15', NULL),
 (30, 2, 'OF-SAI', 'Cider Barn Saison',   'Saison',         5.5, 24, false, true,  '2022-07-01', '2024-06-30'),
 (31, 3, 'SM-PAL', 'Marsh Pale',          'Pale Ale',       4.3, 34, true,  true,  '2020-03-01', NULL),
 (32, 3, 'SM-NEI', 'Haze Runner',         'NEIPA',          6.0, 48, true,  true,  '2020-03-01', NULL),
 (33, 3, 'SM-BIT', 'Broads Bitter',       'Best Bitter',    3.8, 29, true,  false, '2020-03-01', NULL),
 (34, 3, 'SM-GOS', 'Samphire Gose',       'Sour',           4.4,  9, false, true,  '2021-07-01', NULL),
 (35, 3, 'SM-STT', 'Dark Water Stout',    'Stout',          5.5, 42, true,  false, '2020-11-01', NULL),
 (36, 3, 'SM-LAG', 'Reed Lager',          'Lager',          4.4, 21, true,  true,  '2021-04-01', NULL),
 (37, 3, 'SM-HAR', 'Harvest Ale',         'Amber Ale',      5.4, 37, false, true,  '2021-09-01', NULL),
 (38, 3, 'SM-POR', 'Driftwood Porter',    'Porter',         5.0, 31, true,  false, '2020-10-01', NULL),
 (39, 3, 'SM-WHT', 'Norfolk Wheat',       'Wheat Beer',     4.7, 14, false, true,  '2022-05-01', NULL),
 (40, 3, 'SM-SES', 'Shingle Session',     'Session IPA',    3.9, 36, true,  true,  '2021-05-01', NULL);

-- tanks: tenant 1 ids 1-12, tenant 2 ids 13-20, tenant 3 ids 21-26 (fermenters first)
INSERT INTO tanks (id, brewery_id, tank_cd, tank_type, capacity_hl, install_dt, last_cip_dt, is_active) VALUES
 (1,  1, 'FV1', 'fermenter',    20.0, '2019-02-01', '2026-06-02', true),
 (2,  1, 'FV2', 'fermenter',    20.0, '2019-02-01', '2026-06-09', true),
 (3,  1, 'FV3', 'fermenter',    20.0, '2019-02-01', '2026-05-27', true),
 (4,  1, 'FV4', 'fermenter',    20.0, '2019-02-01', '2025-02-24', false),
 (5,  1, 'FV5', 'fermenter',    40.0, '2021-06-15', '2026-06-12', true),
 (6,  1, 'FV6', 'fermenter',    40.0, '2021-06-15', '2026-06-05', true),
 (7,  1, 'FV7', 'fermenter',    40.0, '2023-03-10', '2026-06-16', true),
 (8,  1, 'FV8', 'fermenter',    60.0, '2024-01-22', '2026-06-18', true),
 (9,  1, 'BT1', 'brite',        40.0, '2019-02-01', '2026-06-10', true),
 (10, 1, 'BT2', 'brite',        40.0, '2021-06-15', '2026-06-14', true),
 (11, 1, 'BT3', 'brite',        60.0, '2024-01-22', '2026-06-17', true),
 (12, 1, 'CT1', 'conditioning', 30.0, '2020-08-03', '2024-11-29', false),
 (13, 2, 'FV1', 'fermenter',    25.0, '2018-03-01', '2026-06-03', true),
 (14, 2, 'FV2', 'fermenter',    25.0, '2018-03-01', '2026-06-10', true),
 (15, 2, 'FV3', 'fermenter',    25.0, '2018-03-01', '2026-06-08', true),
 (16, 2, 'FV4', 'fermenter',    50.0, '2020-09-01', '2026-06-15', true),
 (17, 2, 'FV5', 'fermenter',    50.0, '2022-04-11', '2026-06-01', true),
 (18, 2, 'BT1', 'brite',        25.0, '2018-03-01', '2026-06-12', true),
 (19, 2, 'BT2', 'brite',        50.0, '2020-09-01', '2026-06-16', true),
 (20, 2, 'CT1', 'conditioning', 25.0, '2019-05-20', '2026-05-30', true),
 (21, 3, 'FV1', 'fermenter',    15.0, '2020-02-10', '2026-06-04', true),
 (22, 3, 'FV2', 'fermenter',    15.0, '2020-02-10', '2026-06-11', true),
 (23, 3, 'FV3', 'fermenter',    30.0, '2021-08-02', '2026-06-13', true),
 (24, 3, 'FV4', 'fermenter',    30.0, '2023-05-15', '2026-06-06', true),
 (25, 3, 'BT1', 'brite',        15.0, '2020-02-10', '2026-06-09', true),
 (26, 3, 'BT2', 'brite',        30.0, '2021-08-02', '2025-10-15', false);

-- ingredients: a common catalogue; tenant 1 stocks all 30 items, tenant 2 items 1-24, tenant 3 items 1-20 plus 26-30
INSERT INTO ingredients (id, brewery_id, ingr_nm, ingr_type, supplier_nm, uom, unit_cost, stock_qty, reorder_lvl, is_organic, last_recv_dt)
SELECT row_number() OVER (ORDER BY t.bid, c.k), t.bid, c.nm, c.typ, c.sup, c.uom,
       round(c.cost * (1 + ((c.k * 7 + t.bid * 3) % 9 - 4) / 100.0), 2),
       round((CASE c.typ WHEN 'malt' THEN 40 + ((c.k * 137 + t.bid * 61) % 1900)
                         WHEN 'hops' THEN 2 + ((c.k * 29 + t.bid * 13) % 75)
                         WHEN 'yeast' THEN (c.k * 5 + t.bid) % 13
                         ELSE 3 + ((c.k * 17 + t.bid * 7) % 90) END)::numeric, 2),
       CASE c.typ WHEN 'malt' THEN 400 WHEN 'hops' THEN 20 WHEN 'yeast' THEN 4 ELSE 15 END * (CASE WHEN t.bid = 1 THEN 1 ELSE 0.5 END),
       (c.k * 7 + t.bid) % 5 = 0,
       date '2026-06-20' - ((c.k * 23 + t.bid * 11) % 160)
FROM (VALUES (1), (2), (3)) AS t(bid)
CROSS JOIN (VALUES
 (1,  'Maris Otter Pale Malt', 'malt',    'Crisp Malt',       'kg',   1.05),
 (2,  'Extra Pale Malt',       'malt',    'Crisp Malt',       'kg',   1.00),
 (3,  'Pilsner Malt',          'malt',    'Weyermann',        'kg',   1.15),
 (4,  'Crystal 150',           'malt',    'Simpsons Malt',    'kg',   1.30),
 (5,  'Chocolate Malt',        'malt',    'Simpsons Malt',    'kg',   1.60),
 (6,  'Roasted Barley',        'malt',    'Simpsons Malt',    'kg',   1.45),
 (7,  'Wheat Malt',            'malt',    'Weyermann',        'kg',   1.20),
 (8,  'Munich Malt',           'malt',    'Weyermann',        'kg',   1.25),
 (9,  'Flaked Oats',           'malt',    'Crisp Malt',       'kg',   1.10),
 (10, 'Amber Malt',            'malt',    'Crisp Malt',       'kg',   1.35),
 (11, 'Citra',                 'hops',    'Charles Faram',    'kg',  38.00),
 (12, 'Mosaic',                'hops',    'Charles Faram',    'kg',  36.50),
 (13, 'Cascade',               'hops',    'Charles Faram',    'kg',  18.00),
 (14, 'East Kent Goldings',    'hops',    'Hop Locker',       'kg',  16.50),
 (15, 'Fuggles',               'hops',    'Hop Locker',       'kg',  15.00),
 (16, 'Simcoe',                'hops',    'Charles Faram',    'kg',  34.00),
 (17, 'Saaz',                  'hops',    'BarthHaas',        'kg',  22.00),
 (18, 'Nelson Sauvin',         'hops',    'BarthHaas',        'kg',  44.00),
 (19, 'Challenger',            'hops',    'Hop Locker',       'kg',  14.50),
 (20, 'Galaxy',                'hops',    'BarthHaas',        'kg',  41.00),
 (21, 'US-05 Ale Yeast 500g',  'yeast',   'Fermentis',        'pkt', 48.00),
 (22, 'Nottingham Ale Yeast 500g', 'yeast', 'Lallemand',      'pkt', 45.00),
 (23, 'WLP001 California Ale', 'yeast',   'White Labs',       'pkt', 95.00),
 (24, 'W-34/70 Lager Yeast 500g', 'yeast', 'Fermentis',       'pkt', 62.00),
 (25, 'Kveik Voss 500g',       'yeast',   'Lallemand',        'pkt', 58.00),
 (26, 'Lactose',               'adjunct', 'Murphy and Son',   'kg',   3.20),
 (27, 'Rhubarb Puree',         'adjunct', 'Fruit Fusion',     'kg',   6.50),
 (28, 'Irish Moss',            'adjunct', 'Murphy and Son',   'kg',   9.00),
 (29, 'Dextrose',              'adjunct', 'Murphy and Son',   'kg',   1.80),
 (30, 'Sea Salt',              'adjunct', 'Maldon',           'kg',   4.00)
) AS c(k, nm, typ, sup, uom, cost)
WHERE t.bid = 1 OR (t.bid = 2 AND c.k <= 24) OR (t.bid = 3 AND (c.k <= 20 OR c.k >= 26));

-- brew batches: tenant 1 ids 1-320, tenant 2 ids 321-500, tenant 3 ids 501-620
INSERT INTO brew_batches (id, brewery_id, batch_no, beer_id, tank_id, brew_dt, brewer_nm, target_vol_hl, actual_vol_hl, og, fg, status, dump_rsn)
SELECT x.id, x.bid, x.pfx || to_char(x.bd, 'YY') || '-' || lpad(x.g::text, 4, '0'), x.beer_id, x.tank_id, x.bd, x.brewer,
       round(tk.capacity_hl * 0.9, 1),
       CASE WHEN x.st = 'planned' THEN NULL ELSE round(tk.capacity_hl * 0.9 * (0.90 + ((x.g * 7) % 9) / 100.0), 1) END,
       CASE WHEN x.st = 'planned' THEN NULL ELSE round(1 + b.abv * 0.0077 + ((x.g % 5) - 2) * 0.001, 3) END,
       CASE WHEN x.st IN ('planned', 'fermenting') THEN NULL
            ELSE round(1 + b.abv * 0.0077 + ((x.g % 5) - 2) * 0.001 - b.abv / 131.25 + ((x.g % 3) - 1) * 0.001, 3) END,
       x.st,
       CASE WHEN x.st = 'dumped' THEN (ARRAY['infection', 'off-flavour', 'stuck fermentation', 'infection', 'tank failure'])[1 + (x.g / 23) % 5] END
FROM (
    SELECT y.*,
           y.beoff + CASE
               WHEN y.bid = 2 AND y.bi = 12 AND y.bd > date '2024-06-30' THEN 1
               WHEN y.bid <> 1 THEN y.bi
               WHEN y.bi = 15 AND y.bd < date '2024-04-15' THEN 1
               WHEN y.bi = 16 AND y.bd < date '2025-01-20' THEN 7
               WHEN y.bi = 17 AND y.bd > date '2024-09-30' THEN 2
               WHEN y.bi = 18 AND y.bd > date '2023-12-31' THEN 4
               WHEN y.bi = 11 AND y.bd < date '2023-04-01' THEN 6
               ELSE y.bi END AS beer_id,
           y.toff + CASE WHEN y.bid = 1 AND y.ti = 4 AND y.bd >= date '2025-03-01' THEN 5
                         WHEN y.bid = 1 AND y.ti = 8 AND y.bd < date '2024-01-22' THEN 6
                         WHEN y.bid = 1 AND y.ti = 7 AND y.bd < date '2023-03-10' THEN 5
                         WHEN y.bid = 3 AND y.ti = 4 AND y.bd < date '2023-05-15' THEN 3
                         ELSE y.ti END AS tank_id,
           CASE WHEN y.bd > date '2026-06-20' THEN 'planned'
                WHEN y.bd >= date '2026-06-03' THEN 'fermenting'
                WHEN y.bd >= date '2026-05-18' THEN 'conditioning'
                WHEN y.g % 23 = 0 THEN 'dumped'
                ELSE 'packaged' END AS st
    FROM (
        SELECT t.boff + g AS id, t.bid, g, t.pfx, t.beoff, t.toff,
               date '2023-01-04' + ((g - 1) * t.step) / 100 AS bd,
               CASE WHEN t.bid = 1 THEN (ARRAY[1,2,2,3,4,5,5,6,6,7,8,1,2,9,10,11,12,13,14,15,16,17,18,6])[1 + (g * 7 + g / 24) % 24]
                    ELSE 1 + (g * 7 + g / 20) % t.nbeer END AS bi,
               1 + (g * 3) % t.nfv AS ti,
               (t.brewers)[1 + (g + g / 10) % array_length(t.brewers, 1)] AS brewer
        FROM (VALUES (1, 0,   320, 398,  0,  8, 0,  18, 'KH', ARRAY['Sam Hollis', 'Priya Nair', 'Tom Oakes', 'Jess Whitlow']),
                     (2, 320, 180, 707,  12, 5, 18, 12, 'OF', ARRAY['Dan Marsh', 'Ellie Cole', 'Tom Oakes']),
                     (3, 500, 120, 1055, 20, 4, 30, 10, 'SM', ARRAY['Grace Pell', 'Sam Hollis']))
             AS t(bid, boff, n, step, toff, nfv, beoff, nbeer, pfx, brewers)
        CROSS JOIN LATERAL generate_series(1, t.n) AS g
    ) AS y
) AS x
JOIN tanks tk ON tk.id = x.tank_id
JOIN beers b ON b.id = x.beer_id;

-- packaging runs: every packaged batch gets a keg or cask run; every other packaged batch also a can run
INSERT INTO packaging_runs (id, brewery_id, batch_id, pkg_dt, pkg_fmt, units_qty, waste_l, bbe_dt, line_cd)
SELECT row_number() OVER (ORDER BY r.batch_id, r.k), r.brewery_id, r.batch_id, r.pkg_dt, r.fmt,
       floor(r.vol_l / (CASE r.fmt WHEN 'keg30' THEN 30 WHEN 'keg50' THEN 50 WHEN 'firkin' THEN 40.9 ELSE 0.44 END))::integer,
       r.waste,
       r.pkg_dt + CASE r.fmt WHEN 'firkin' THEN 42 WHEN 'can440' THEN 270 ELSE 120 END,
       CASE WHEN r.fmt = 'firkin' THEN 'CASKLINE'
            WHEN r.fmt = 'can440' AND r.brewery_id = 3 THEN 'MOBILE'
            WHEN r.fmt = 'can440' AND r.batch_id % 6 = 0 THEN 'MOBILE'
            WHEN r.fmt = 'can440' THEN 'CANLINE'
            ELSE 'KEGLINE' END
FROM (
    SELECT bb.brewery_id, bb.id AS batch_id, k,
           bb.brew_dt + 18 + (bb.id % 7) + (k - 1) * 3 AS pkg_dt,
           CASE WHEN k = 2 THEN 'can440'
                WHEN b.style IN ('Best Bitter', 'Old Ale', 'Porter') AND bb.id % 3 <> 0 THEN 'firkin'
                WHEN b.style = 'Lager' THEN 'keg50'
                WHEN bb.id % 5 = 0 THEN 'firkin'
                ELSE 'keg30' END AS fmt,
           bb.actual_vol_hl * 100 * (CASE WHEN bb.id % 2 = 0 THEN (CASE k WHEN 1 THEN 0.6 ELSE 0.4 END) ELSE 1 END) * 0.97 AS vol_l,
           round((bb.actual_vol_hl * (1.5 + (bb.id * 13 % 20) / 10.0) * (CASE k WHEN 2 THEN 1.4 ELSE 1 END))::numeric, 1) AS waste
    FROM brew_batches bb
    JOIN beers b ON b.id = bb.beer_id
    CROSS JOIN LATERAL generate_series(1, CASE WHEN bb.id % 2 = 0 THEN 2 ELSE 1 END) AS k
    WHERE bb.status = 'packaged'
) AS r;

-- quality tests: gravity on brew day, pH/micro during fermentation, abv + sensory at packaging
INSERT INTO quality_tests (id, brewery_id, batch_id, test_ts, test_type, result_val, pass_flg, tested_by, notes)
SELECT row_number() OVER (ORDER BY q.batch_id, q.k), q.brewery_id, q.batch_id, q.ts, q.ttype, q.val, q.pass, q.tester, q.notes
FROM (
    SELECT bb.brewery_id, bb.id AS batch_id, k,
           bb.brew_dt + (ARRAY[0, 3, 7, 17, 18])[k] + ((ARRAY[10, 9, 11, 14, 15])[k] + bb.id % 3) * interval '1 hour' + ((bb.id * 7) % 60) * interval '1 minute' AS ts,
           (ARRAY['gravity', 'ph', 'micro', 'abv', 'sensory'])[k] AS ttype,
           CASE k WHEN 1 THEN bb.og
                  WHEN 2 THEN round(4.1 + ((bb.id * 11) % 9) / 10.0 - CASE WHEN b.style = 'Sour' THEN 0.9 ELSE 0 END, 3)
                  WHEN 3 THEN CASE WHEN bb.status = 'dumped' THEN 40 + bb.id % 50 WHEN bb.id % 17 = 0 THEN 12 ELSE bb.id % 4 END
                  WHEN 4 THEN round(b.abv + ((bb.id % 7) - 3) * 0.05 + CASE WHEN bb.id % 29 = 0 THEN 0.45 ELSE 0 END, 2)
                  ELSE round(6.5 + ((bb.id * 13) % 30) / 10.0 - CASE WHEN bb.id % 11 = 0 THEN 2.5 ELSE 0 END, 1) END AS val,
           CASE k WHEN 1 THEN true
                  WHEN 2 THEN NOT (bb.id % 31 = 0)
                  WHEN 3 THEN NOT (bb.status = 'dumped' OR bb.id % 17 = 0)
                  WHEN 4 THEN NOT (bb.id % 29 = 0)
                  ELSE NOT (bb.id % 11 = 0) END AS pass,
           CASE WHEN bb.brewery_id = 1 THEN (ARRAY['Megan Lowe', 'Priya Nair', 'Lab Services Ltd'])[1 + (bb.id + k) % 3]
                WHEN bb.brewery_id = 2 THEN (ARRAY['Ellie Cole', 'Lab Services Ltd'])[1 + (bb.id + k) % 2]
                ELSE (ARRAY['Grace Pell', 'Megan Lowe'])[1 + (bb.id + k) % 2] END AS tester,
           CASE WHEN k = 3 AND bb.status = 'dumped' THEN 'Heavy contamination, batch dumped'
                WHEN k = 3 AND bb.id % 17 = 0 THEN 'Low level wild yeast, retest ordered'
                WHEN k = 5 AND bb.id % 11 = 0 THEN 'Panel noted diacetyl'
                WHEN k = 4 AND bb.id % 29 = 0 THEN 'ABV above label tolerance'
                WHEN k = 2 AND bb.id % 31 = 0 THEN 'pH out of range' END AS notes
    FROM brew_batches bb
    JOIN beers b ON b.id = bb.beer_id
    CROSS JOIN LATERAL generate_series(1, CASE WHEN bb.status IN ('packaged') THEN 5
                                               WHEN bb.status IN ('dumped', 'conditioning') THEN 3
                                               WHEN bb.status = 'fermenting' THEN 2 ELSE 0 END) AS k
    WHERE bb.brew_dt + (ARRAY[0, 3, 7, 17, 18])[k] <= date '2026-06-26'
) AS q;

-- customers: tenant 1 ids 1-90, tenant 2 ids 91-140, tenant 3 ids 141-175
INSERT INTO customers (id, brewery_id, acct_cd, cust_nm, cust_type, city, acct_tier, credit_limit_amt, opened_dt, is_active)
SELECT t.coff + g, t.bid, t.pfx || lpad((100 + g * 7)::text, 5, '0'),
       CASE c.ctype
            WHEN 'pub' THEN 'The ' || (ARRAY['Red','Golden','Black','White','Royal','Old','Rose','Grey','Green','Blue'])[1 + g % 10]
                            || ' ' || (ARRAY['Lion','Stag','Swan','Horse','Bull','Anchor','Plough','Fox','Hart','Bell'])[1 + (g / 10) % 10]
            WHEN 'bar' THEN (ARRAY['Tap','Hop','Cask','Barrel','Copper','Mash','Grain','Yeast','Wort','Malt'])[1 + (g / 5) % 10]
                            || (ARRAY[' Room',' House',' & Tun',' Social',' Yard'])[1 + (g / 50) % 5]
            WHEN 'restaurant' THEN (ARRAY['Brasserie','Kitchen','Bistro','Grill','Dining Rooms'])[1 + (g / 5) % 5] || ' ' || c.city
            WHEN 'bottle_shop' THEN (ARRAY['Hop Hideout','Beer Central','The Bottle Stop','Craft Cellar','Brew Haven','Cans & Co'])[1 + (g / 3) % 6]
                            || ' ' || c.city
            ELSE (ARRAY['Northern Beer Distribution','Cask Logistics Ltd','Independent Drinks Wholesale','Regional Ale Supply','Green Valley Wholesale'])[1 + (g / 10) % 5]
       END,
       c.ctype, c.city,
       CASE WHEN g % 15 = 0 OR c.ctype = 'distributor' THEN 'key_account' WHEN g % 4 = 0 THEN 'gold' ELSE 'standard' END,
       CASE WHEN g % 15 = 0 OR c.ctype = 'distributor' THEN 25000 WHEN g % 4 = 0 THEN 8000 ELSE 2500 + (g % 5) * 500 END,
       date '2023-01-02' + (g * 37) % 900,
       g % 13 <> 0
FROM (VALUES (1, 0, 90, 'KH', 'Sheffield', ARRAY['Sheffield','Sheffield','Sheffield','Leeds','Manchester','Nottingham','Derby','Sheffield','York','Chesterfield']),
             (2, 90, 50, 'OF', 'Bristol', ARRAY['Bristol','Bristol','Bath','Cardiff','Bristol','Exeter','Gloucester','Bristol','Sheffield','Leeds']),
             (3, 140, 35, 'SM', 'Norwich', ARRAY['Norwich','Norwich','Cambridge','Ipswich','Norwich','Kings Lynn','Great Yarmouth','Norwich','Sheffield','Cromer']))
     AS t(bid, coff, n, pfx, city1, cities)
CROSS JOIN LATERAL generate_series(1, t.n) AS g
CROSS JOIN LATERAL (
    SELECT (ARRAY['pub','pub','pub','bar','pub','restaurant','bottle_shop','pub','bar','bottle_shop','pub','distributor','pub','bar','pub','restaurant','pub','bottle_shop','pub','pub'])[1 + (g * 3) % 20] AS ctype,
           (t.cities)[1 + (g * 7 + g / 10) % 10] AS city
) AS c;

-- give shops and restaurants distinct trading names
UPDATE customers c
SET cust_nm = CASE c.cust_type
        WHEN 'bottle_shop' THEN (ARRAY['Hop Hideout','Beer Central','The Bottle Stop','Craft Cellar','Brew Haven','Cans & Co','The Beer Shelf',
                                       'Hopscotch Bottles','Liquid Gold','The Grain Store','Drink Local','Malt & Hop','Bottle Shock','Cellar Door',
                                       'The Tap End','Fermented'])[r.rn]
        ELSE (ARRAY['Brasserie Blanc','The Kitchen Table','Bistro Nine','Smoke & Grill','The Dining Rooms','Olive Tree','Steel Kitchen',
                    'Harbour Grill','Copper Pot','The Larder'])[r.rn] END
FROM (SELECT id, row_number() OVER (PARTITION BY brewery_id, cust_type ORDER BY id) AS rn
      FROM customers WHERE cust_type IN ('bottle_shop', 'restaurant')) AS r
WHERE r.id = c.id;

-- orders: tenant 1 ids 1-600, tenant 2 ids 601-950, tenant 3 ids 951-1150
INSERT INTO orders (id, brewery_id, order_no, cust_id, order_dt, req_dlv_dt, status, channel, paid_flg)
SELECT o.id, o.bid, o.order_no, o.cust_id, o.od, o.od + 2 + o.g % 5, o.st, o.ch,
       o.st = 'delivered' AND (o.od < date '2026-05-01' AND o.g % 31 <> 0)
FROM (
    SELECT t.ooff + g AS id, t.bid, g,
           t.pfx || '-' || lpad((10000 + t.ooff + g)::text, 6, '0') AS order_no,
           t.coff + 1 + (g * 7 + g / 13) % t.nc AS cust_id,
           date '2023-01-09' + ((g - 1) * t.step) / 100 AS od,
           (ARRAY['rep', 'phone', 'web', 'web', 'rep', 'phone', 'web'])[1 + (g * 3 + g / 7) % 7] AS ch,
           CASE WHEN date '2023-01-09' + ((g - 1) * t.step) / 100 >= date '2026-06-20' AND g % 4 = 0 THEN 'draft'
                WHEN date '2023-01-09' + ((g - 1) * t.step) / 100 >= date '2026-06-20' THEN 'confirmed'
                WHEN date '2023-01-09' + ((g - 1) * t.step) / 100 >= date '2026-06-12' THEN 'dispatched'
                WHEN g % 17 = 0 THEN 'cancelled'
                ELSE 'delivered' END AS st
    FROM (VALUES (1, 0,   600, 211, 0,   90, 'KHO'),
                 (2, 600, 350, 362, 90,  50, 'OFO'),
                 (3, 950, 200, 634, 140, 35, 'SMO'))
         AS t(bid, ooff, n, step, coff, nc, pfx)
    CROSS JOIN LATERAL generate_series(1, t.n) AS g
) AS o;

-- order lines: 1-4 lines per order
INSERT INTO order_lines (id, brewery_id, order_id, line_no, beer_id, pkg_fmt, qty, unit_price, disc_pct, line_amt)
SELECT row_number() OVER (ORDER BY l.order_id, l.k), l.brewery_id, l.order_id, l.k, l.beer_id, l.fmt, l.qty, l.price, l.disc,
       round(l.qty * l.price * (1 - l.disc / 100), 2)
FROM (
    SELECT m.*,
           round((CASE m.fmt WHEN 'keg30' THEN 88 WHEN 'keg50' THEN 140 WHEN 'firkin' THEN 78 ELSE 34 END
                  + b.abv * CASE m.fmt WHEN 'keg30' THEN 7 WHEN 'keg50' THEN 11 WHEN 'firkin' THEN 8 ELSE 2.5 END)::numeric, 2) AS price,
           (1 + (m.order_id * 3 + m.k) % (CASE m.fmt WHEN 'can440' THEN 8 ELSE 5 END)) * (CASE WHEN m.ctype = 'distributor' THEN 4 ELSE 1 END) AS qty,
           CASE WHEN m.tier = 'key_account' THEN 10.0 WHEN m.tier = 'gold' THEN 5.0 WHEN m.order_id % 9 = 0 THEN 2.5 ELSE 0 END AS disc
    FROM (
        SELECT o.brewery_id, o.id AS order_id, k, c.cust_type AS ctype, c.acct_tier AS tier,
               bx.id AS beer_id,
               CASE WHEN c.cust_type = 'bottle_shop' THEN 'can440'
                    WHEN bx.style = 'Lager' THEN 'keg50'
                    WHEN bx.style IN ('Best Bitter', 'Porter', 'Old Ale') AND (o.id + k) % 3 <> 0 THEN 'firkin'
                    WHEN (o.id + k) % 4 = 0 THEN 'can440'
                    ELSE 'keg30' END AS fmt
        FROM orders o
        JOIN customers c ON c.id = o.cust_id
        CROSS JOIN LATERAL generate_series(1, 1 + (o.id * 5) % 4) AS k
        CROSS JOIN LATERAL (
            SELECT bb.id, bb.style FROM beers bb
            WHERE bb.brewery_id = o.brewery_id
              AND bb.launch_dt <= o.order_dt
              AND (bb.retired_dt IS NULL OR bb.retired_dt + 60 >= o.order_dt)
            ORDER BY (bb.id * 7 + o.id * 3 + k * 11) % 19, bb.id
            LIMIT 1
        ) AS bx
    ) AS m
    JOIN beers b ON b.id = m.beer_id
) AS l;

UPDATE orders o SET net_amt = s.net, vat_amt = round(s.net * 0.20, 2)
FROM (SELECT order_id, SUM(line_amt) AS net FROM order_lines GROUP BY order_id) AS s
WHERE s.order_id = o.id;

-- deliveries: one drop per dispatched/delivered order, plus an earlier failed attempt on some delivered orders
INSERT INTO deliveries (id, brewery_id, order_id, sched_dt, delivered_at, status, driver_nm, van_reg, empties_back, dist_km)
SELECT row_number() OVER (ORDER BY d.order_id, d.k), d.brewery_id, d.order_id, d.sched,
       CASE WHEN d.st = 'delivered' THEN d.sched + ((7 + (d.order_id * 5) % 9) * interval '1 hour') + (((d.order_id * 13) % 60) * interval '1 minute') END,
       d.st, d.driver, d.van,
       CASE WHEN d.st = 'delivered' THEN (d.order_id * 3) % 7 ELSE 0 END,
       d.km
FROM (
    SELECT o.brewery_id, o.id AS order_id, k,
           CASE WHEN o.status = 'dispatched' THEN 'out_for_delivery'
                WHEN k = 1 AND o.id % 19 = 0 THEN 'failed'
                ELSE 'delivered' END AS st,
           o.req_dlv_dt + CASE WHEN o.id % 19 = 0 AND o.status = 'delivered' THEN k - 1 ELSE 0 END + CASE WHEN o.id % 11 = 0 THEN 2 ELSE 0 END AS sched,
           CASE o.brewery_id WHEN 1 THEN (ARRAY['Gary Platt', 'Leanne Hirst', 'Mo Rashid'])[1 + (o.id + k) % 3]
                             WHEN 2 THEN (ARRAY['Gary Platt', 'Ben Yeo'])[1 + (o.id + k) % 2]
                             ELSE (ARRAY['Kev Loades', 'Ben Yeo'])[1 + (o.id + k) % 2] END AS driver,
           CASE o.brewery_id WHEN 1 THEN (ARRAY['YK19 KHB', 'YK22 KHC'])[1 + o.id % 2]
                             WHEN 2 THEN 'WU20 OFA' ELSE 'AY21 SMB' END AS van,
           round((CASE WHEN c.city IN ('Sheffield', 'Bristol', 'Norwich') THEN 3 + (c.id * 7) % 12
                       ELSE 35 + (c.id * 11) % 90 END)::numeric, 1) AS km
    FROM orders o
    JOIN customers c ON c.id = o.cust_id
    CROSS JOIN LATERAL generate_series(1, CASE WHEN o.id % 19 = 0 AND o.status = 'delivered' THEN 2 ELSE 1 END) AS k
    WHERE o.status IN ('dispatched', 'delivered')
) AS d;
