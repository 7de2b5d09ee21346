-- Ticketing platform shared by several live-event promoters: each promoter books venues and
-- performers, puts events (shows) on sale in ticket tiers, sells orders of tickets to patrons
-- (with optional promo codes), scans tickets at the door and issues refunds.
-- Every table except the registry `promoters` carries `promoter_id`, the tenant that owns the row;
-- a promoter only ever sees its own rows.

CREATE TABLE promoters (
    id            integer PRIMARY KEY,
    name          text NOT NULL,
    country_code  char(2) NOT NULL,
    currency      char(3) NOT NULL,
    plan_tier     text NOT NULL,
    created_at    timestamp NOT NULL
);
COMMENT ON TABLE promoters IS 'Promoter companies that use the platform (one row per customer account).';
COMMENT ON COLUMN promoters.plan_tier IS 'Subscription plan of the promoter: starter, pro or enterprise.';

CREATE TABLE venues (
    id            integer PRIMARY KEY,
    promoter_id   integer NOT NULL REFERENCES promoters(id),
    venue_name    text NOT NULL,
    city          text NOT NULL,
    cap           integer NOT NULL,
    venue_type    text NOT NULL,
    is_seated     boolean NOT NULL DEFAULT false,
    postcode      text
);
COMMENT ON TABLE venues IS 'Rooms, clubs, theatres and outdoor sites where shows take place.';
COMMENT ON COLUMN venues.cap IS 'Licensed capacity: the maximum number of people allowed in.';
COMMENT ON COLUMN venues.venue_type IS 'club, theatre, bar, arena or outdoor.';

CREATE TABLE performers (
    id            integer PRIMARY KEY,
    promoter_id   integer NOT NULL REFERENCES promoters(id),
    stage_name    text NOT NULL,
    genre         text NOT NULL,
    home_city     text,
    agent_email   text,
    fee_amt       numeric(10,2) NOT NULL
);
COMMENT ON TABLE performers IS 'Artists, bands, DJs and comedians booked by the promoter.';
COMMENT ON COLUMN performers.fee_amt IS 'Guaranteed fee paid to the act for one show.';
COMMENT ON COLUMN performers.agent_email IS 'Booking agent contact; empty when the act books itself.';

CREATE TABLE events (
    id            integer PRIMARY KEY,
    promoter_id   integer NOT NULL REFERENCES promoters(id),
    venue_id      integer NOT NULL REFERENCES venues(id),
    headliner_id  integer NOT NULL,
    title         text NOT NULL,
    event_dt      timestamp NOT NULL,
    status        text NOT NULL,
    min_age       integer,
    cap_override  integer
);
COMMENT ON TABLE events IS 'Shows (gigs, club nights, comedy nights) put on by the promoter.';
COMMENT ON COLUMN events.headliner_id IS 'The main act of the show (a performer).';
COMMENT ON COLUMN events.event_dt IS 'Date and time the show starts (doors open 60 minutes earlier).';
COMMENT ON COLUMN events.status IS 'draft, on_sale, sold_out, completed or cancelled.';
COMMENT ON COLUMN events.min_age IS 'Age restriction, e.g. 18 for over-18s shows; empty means all ages.';
COMMENT ON COLUMN events.cap_override IS 'Reduced capacity for this show when the room is partly closed; empty means the venue capacity applies.';

CREATE TABLE ticket_tiers (
    id            integer PRIMARY KEY,
    promoter_id   integer NOT NULL REFERENCES promoters(id),
    event_id      integer NOT NULL REFERENCES events(id),
    tier_name     text NOT NULL,
    face_value    numeric(10,2) NOT NULL,
    qty_alloc     integer NOT NULL
);
COMMENT ON TABLE ticket_tiers IS 'Price levels on sale for a show (General Admission, VIP, Early Bird).';
COMMENT ON COLUMN ticket_tiers.face_value IS 'Ticket price before booking fees and discounts.';
COMMENT ON COLUMN ticket_tiers.qty_alloc IS 'Number of tickets released for sale at this price.';

CREATE TABLE patrons (
    id                integer PRIMARY KEY,
    promoter_id       integer NOT NULL REFERENCES promoters(id),
    cust_ref          text NOT NULL,
    full_name         text NOT NULL,
    email             text NOT NULL,
    phone             text,
    city              text,
    signup_dt         date NOT NULL,
    marketing_opt_in  boolean NOT NULL
);
COMMENT ON TABLE patrons IS 'Ticket buyers (customers / fans) with an account.';
COMMENT ON COLUMN patrons.cust_ref IS 'Customer reference printed on receipts and quoted to the box office.';
COMMENT ON COLUMN patrons.marketing_opt_in IS 'True when the buyer agreed to receive the newsletter and on-sale emails.';

CREATE TABLE promo_codes (
    id            integer PRIMARY KEY,
    promoter_id   integer NOT NULL REFERENCES promoters(id),
    code          text NOT NULL,
    pct_off       numeric(5,2) NOT NULL,
    valid_from    date NOT NULL,
    valid_to      date,
    max_uses      integer
);
COMMENT ON TABLE promo_codes IS 'Discount codes buyers can enter at checkout.';
COMMENT ON COLUMN promo_codes.pct_off IS 'Discount in percent off the face value (100 = complimentary ticket).';
COMMENT ON COLUMN promo_codes.max_uses IS 'Maximum number of orders that may use the code; empty means unlimited.';

CREATE TABLE orders (
    id             integer PRIMARY KEY,
    promoter_id    integer NOT NULL REFERENCES promoters(id),
    patron_id      integer NOT NULL REFERENCES patrons(id),
    event_id       integer NOT NULL REFERENCES events(id),
    order_ts       timestamp NOT NULL,
    channel        text NOT NULL,
    status         text NOT NULL,
    promo_code_id  integer,
    qty            integer NOT NULL,
    fees_amt       numeric(10,2) NOT NULL DEFAULT 0,
    total          numeric(10,2) NOT NULL DEFAULT 0
);
COMMENT ON TABLE orders IS 'Checkout baskets: one purchase of one or more tickets for one show.';
COMMENT ON COLUMN orders.channel IS 'Where the sale was made: web, app, box_office or reseller.';
COMMENT ON COLUMN orders.status IS 'paid, pending, cancelled (payment failed), refunded or partially_refunded.';
COMMENT ON COLUMN orders.fees_amt IS 'Booking fees charged on top of the ticket prices.';
COMMENT ON COLUMN orders.total IS 'Amount charged to the buyer in money (tickets after discount plus booking fees), not a count.';
COMMENT ON COLUMN orders.qty IS 'Number of tickets in the order.';
COMMENT ON COLUMN orders.promo_code_id IS 'Discount code entered at checkout, if any.';

CREATE TABLE tickets (
    id            integer PRIMARY KEY,
    promoter_id   integer NOT NULL REFERENCES promoters(id),
    order_id      integer NOT NULL REFERENCES orders(id),
    tier_id       integer NOT NULL REFERENCES ticket_tiers(id),
    barcode       text NOT NULL,
    seat_ref      text,
    price_paid    numeric(10,2) NOT NULL,
    status        text NOT NULL
);
COMMENT ON TABLE tickets IS 'Individual admission tickets issued inside an order.';
COMMENT ON COLUMN tickets.seat_ref IS 'Seat label for seated venues (row-seat); empty for standing.';
COMMENT ON COLUMN tickets.status IS 'valid, refunded or void.';
COMMENT ON COLUMN tickets.price_paid IS 'What the buyer paid for this ticket after any discount, excluding booking fees.';

CREATE TABLE door_scans (
    id            integer PRIMARY KEY,
    promoter_id   integer NOT NULL REFERENCES promoters(id),
    ticket_id     integer REFERENCES tickets(id),
    scanned_at    timestamp NOT NULL,
    gate          text NOT NULL,
    result        text NOT NULL,
    device_ref    text
);
COMMENT ON TABLE door_scans IS 'Every barcode scan made by door staff at show entry.';
COMMENT ON COLUMN door_scans.device_ref IS 'Handheld scanner used; empty when the code was typed in manually.';
COMMENT ON COLUMN door_scans.result IS 'admitted, rejected_duplicate (already scanned in) or rejected_invalid (refunded or void ticket).';

CREATE TABLE refunds (
    id            integer PRIMARY KEY,
    promoter_id   integer NOT NULL REFERENCES promoters(id),
    order_id      integer NOT NULL,
    refund_amt    numeric(10,2) NOT NULL,
    refund_dt     date NOT NULL,
    reason        text NOT NULL,
    method        text NOT NULL,
    processed_by  text
);
COMMENT ON TABLE refunds IS 'Money given back to buyers against an order.';
COMMENT ON COLUMN refunds.reason IS 'event_cancelled, customer_request, duplicate_charge or fraud_check.';
COMMENT ON COLUMN refunds.method IS 'original_card (money back to the card used) or credit_voucher (credit for a future show).';
COMMENT ON COLUMN refunds.processed_by IS 'Staff member who approved the refund; empty when issued automatically for a cancelled show.';

-- ---------------------------------------------------------------- seed data

INSERT INTO promoters VALUES
 (1, 'Northern Lights Live',     'GB', 'GBP', 'pro',        '2022-09-12 10:15:00'),
 (2, 'Harbour Sound Promotions', 'IE', 'EUR', 'enterprise', '2022-11-03 14:40:00');

INSERT INTO venues VALUES
 (1,  1, 'The Foundry',             'Sheffield',  1200, 'club',    false, 'S10 2TG'),
 (2,  1, 'Albert Hall Manchester',  'Manchester', 2000, 'theatre', true,  'M2 5QR'),
 (3,  1, 'Warehouse 23',            'Leeds',       800, 'club',    false, NULL),
 (4,  1, 'Castlefield Bowl',        'Manchester', 8000, 'outdoor', false, 'M3 4JR'),
 (5,  1, 'The Crescent Rooms',      'York',        350, 'bar',     false, 'YO24 1AW'),
 (6,  1, 'Riverside Arena',         'Newcastle',  5000, 'arena',   true,  'NE1 3PF'),
 (7,  2, 'The Button Factory',      'Dublin',      750, 'club',    false, NULL),
 (8,  2, 'Marquee Cork',            'Cork',       5000, 'outdoor', false, NULL),
 (9,  2, 'Dolans Warehouse',        'Limerick',    400, 'bar',     false, NULL),
 (10, 2, 'Vicar Street',            'Dublin',     1500, 'theatre', true,  NULL);

INSERT INTO performers VALUES
 (1,  1, 'The Velvet Static',  'indie',      'Sheffield',  'bookings@velvetstatic.co.uk', 4500.00),
 (2,  1, 'Mara Quinn',         'folk',       'Glasgow',    'mara@quillagency.com',        2200.00),
 (3,  1, 'DJ Kestrel',         'electronic', 'Leeds',      NULL,                          1800.00),
 (4,  1, 'Hollow Pines',       'rock',       'Manchester', 'team@hollowpines.net',        6000.00),
 (5,  1, 'Sofia Brandt',       'pop',        'London',     'sofia@brightsideagency.com',  9500.00),
 (6,  1, 'The Lantern Club',   'indie',      'Liverpool',  NULL,                          3000.00),
 (7,  1, 'Big Sky Brass',      'jazz',       'Newcastle',  'hello@bigskybrass.co.uk',     2600.00),
 (8,  1, 'Nadia Okafor',       'comedy',     'Birmingham', 'nadia@laughlines.co.uk',      3500.00),
 (9,  1, 'Copperline',         'rock',       'Bristol',    NULL,                          4000.00),
 (10, 1, 'Ghost Orchard',      'electronic', 'Manchester', 'ghostorchard@quillagency.com',5200.00),
 (11, 1, 'Lena Marsh Trio',    'jazz',       'York',       NULL,                          1500.00),
 (12, 1, 'Rook & Raven',       'folk',       'Durham',     'rr@quillagency.com',          2800.00),
 (13, 1, 'Tidewater',          'rock',       NULL,         'tidewater@brightsideagency.com', 7000.00),
 (14, 1, 'Paper Satellites',   'pop',        'Leeds',      NULL,                          3800.00),
 (15, 2, 'The Claddagh Kings', 'folk',       'Galway',     'kings@westbooking.ie',        3000.00),
 (16, 2, 'Aoife Brennan',      'pop',        'Dublin',     'aoife@greenroom.ie',          5500.00),
 (17, 2, 'Liffey Sound System','electronic', 'Dublin',     NULL,                          2000.00),
 (18, 2, 'Siobhan Daly',       'comedy',     'Cork',       'siobhan@greenroom.ie',        2500.00),
 (19, 2, 'Black Rock Harbour', 'rock',       'Cork',       NULL,                          4200.00),
 (20, 2, 'Niamh Roe Quartet',  'jazz',       'Limerick',   NULL,                          1600.00),
 (21, 2, 'Foxglove',           'indie',      'Belfast',    'foxglove@westbooking.ie',     3300.00),
 (22, 2, 'Ciaran Walsh',       'folk',       'Kerry',      NULL,                          1900.00);

-- Events: tenant 1 gets 72 shows every 14 days from March 2023; tenant 2 gets 36 shows every 28 days.
INSERT INTO events (id, promoter_id, venue_id, headliner_id, title, event_dt, status, min_age, cap_override)
SELECT n, 1,
       (ARRAY[1,2,4,1,3,2,1,3,4,1,6,2,5])[1 + n % 13],
       1 + (n * 3) % 14,
       p.stage_name || ': ' || (ARRAY['Spring Tour','Album Launch','Winter Sessions','Acoustic Night','Summer Series','Farewell Show','Live & Loud'])[1 + (n + n / 14) % 7],
       timestamp '2023-03-04 19:30' + (n - 1) * interval '14 days' + ((n % 3) * interval '30 minutes'),
       CASE WHEN timestamp '2023-03-04 19:30' + (n - 1) * interval '14 days' < timestamp '2025-09-15'
                 THEN CASE WHEN n % 11 = 0 THEN 'cancelled' ELSE 'completed' END
            WHEN n % 4 = 0 THEN 'draft'
            WHEN n % 3 = 0 THEN 'sold_out'
            ELSE 'on_sale' END,
       CASE WHEN n % 4 = 1 THEN 18 WHEN n % 9 = 2 THEN 16 ELSE NULL END,
       CASE WHEN n % 10 = 7 THEN 600 ELSE NULL END
FROM generate_series(1, 72) AS n
JOIN performers p ON p.id = 1 + (n * 3) % 14;

INSERT INTO events (id, promoter_id, venue_id, headliner_id, title, event_dt, status, min_age, cap_override)
SELECT 72 + m, 2,
       7 + m % 4,
       15 + (m * 3) % 8,
       p.stage_name || ': ' || (ARRAY['Live in Concert','Christmas Special','Homecoming','Summer Nights','Late Session'])[1 + m % 5],
       timestamp '2023-02-10 20:00' + (m - 1) * interval '28 days',
       CASE WHEN timestamp '2023-02-10 20:00' + (m - 1) * interval '28 days' < timestamp '2025-09-15'
                 THEN CASE WHEN m % 11 = 0 THEN 'cancelled' ELSE 'completed' END
            WHEN m % 2 = 0 THEN 'on_sale'
            ELSE 'sold_out' END,
       CASE WHEN m % 3 = 0 THEN 18 ELSE NULL END,
       NULL
FROM generate_series(1, 36) AS m
JOIN performers p ON p.id = 15 + (m * 3) % 8;

-- Three tiers per show: 1 = General Admission, 2 = VIP, 3 = Early Bird.
INSERT INTO ticket_tiers (id, promoter_id, event_id, tier_name, face_value, qty_alloc)
SELECT (e.id - 1) * 3 + k, e.promoter_id, e.id,
       (ARRAY['General Admission','VIP','Early Bird'])[k],
       round(( CASE v.venue_type WHEN 'club' THEN 25 WHEN 'theatre' THEN 35 WHEN 'outdoor' THEN 45
                                 WHEN 'bar' THEN 15 ELSE 55 END + (e.id % 5) * 2.5 )
             * (ARRAY[1.0, 2.2, 0.8])[k], 2),
       (COALESCE(e.cap_override, v.cap) * (ARRAY[0.7, 0.1, 0.2])[k])::int
FROM events e
JOIN venues v ON v.id = e.venue_id
CROSS JOIN generate_series(1, 3) AS k;

INSERT INTO patrons (id, promoter_id, cust_ref, full_name, email, phone, city, signup_dt, marketing_opt_in)
SELECT i, 1,
       'C' || lpad(i::text, 6, '0'),
       f.fn || ' ' || l.ln,
       lower(f.fn) || '.' || lower(l.ln) || i || '@mailbox.example',
       CASE WHEN i % 4 = 0 THEN NULL ELSE '07' || lpad(((i * 7919) % 1000000000)::text, 9, '0') END,
       CASE WHEN i % 17 = 0 THEN NULL
            ELSE (ARRAY['Manchester','Leeds','Sheffield','Manchester','York','Leeds','Newcastle','Manchester','Liverpool','Sheffield','Bradford','Leeds','Hull','Manchester'])[1 + i % 14] END,
       date '2022-11-01' + (i * 19 / 10),
       i % 3 <> 0
FROM generate_series(1, 500) AS i
JOIN LATERAL (SELECT (ARRAY['Olivia','Jack','Amelia','Harry','Isla','Oscar','Ava','George','Mia','Noah',
                             'Emily','Leo','Grace','Charlie','Sophie','Freddie','Lily','Alfie','Ruby','Thomas',
                             'Chloe','Jacob','Ella','Arthur','Hannah'])[1 + i % 25] AS fn) f ON true
JOIN LATERAL (SELECT (ARRAY['Smith','Jones','Taylor','Brown','Williams','Wilson','Johnson','Davies','Patel','Wright',
                             'Robinson','Walker','Thompson','Evans','Hughes','Green','Hall','Wood','Clarke','Hussain',
                             'Turner','Hill','Cooper','Ward','Morris'])[1 + (i / 25) % 25] AS ln) l ON true;

INSERT INTO patrons (id, promoter_id, cust_ref, full_name, email, phone, city, signup_dt, marketing_opt_in)
SELECT 500 + j, 2,
       'HS-' || lpad(j::text, 5, '0'),
       f.fn || ' ' || l.ln,
       lower(f.fn) || '.' || lower(l.ln) || j || '@post.example',
       CASE WHEN j % 5 = 0 THEN NULL ELSE '08' || lpad(((j * 6133) % 100000000)::text, 8, '0') END,
       (ARRAY['Dublin','Cork','Limerick','Galway','Waterford'])[1 + j % 5],
       date '2022-12-01' + (j * 3),
       j % 2 = 0
FROM generate_series(1, 250) AS j
JOIN LATERAL (SELECT (ARRAY['Sean','Aoife','Conor','Ciara','Darragh','Niamh','Oisin','Saoirse','Cian','Roisin',
                             'Eoin','Sinead','Padraig','Orla','Fionn','Grainne','Tadhg','Clodagh','Ronan','Eimear'])[1 + j % 20] AS fn) f ON true
JOIN LATERAL (SELECT (ARRAY['Murphy','Kelly','OSullivan','Walsh','Byrne','Ryan','OBrien','Lynch','Doyle','McCarthy',
                             'Gallagher','Kennedy','Quinn','Nolan','Farrell','Dunne','Brady','Healy','Moran','Fitzgerald'])[1 + (j / 20) % 20] AS ln) l ON true;

INSERT INTO promo_codes VALUES
 (1, 1, 'EARLYBIRD10', 10.00, '2023-01-01', NULL,         NULL),
 (2, 1, 'STUDENT15',   15.00, '2023-01-01', NULL,         NULL),
 (3, 1, 'FRIENDS20',   20.00, '2023-04-01', '2025-12-31', 500),
 (4, 1, 'SUMMER24',    25.00, '2024-06-01', '2024-08-31', 200),
 (5, 1, 'NEWYEAR25',   25.00, '2025-01-01', '2025-01-31', 150),
 (6, 1, 'CREWCOMP',   100.00, '2023-01-01', NULL,         50),
 (7, 2, 'CRAIC10',     10.00, '2023-01-01', NULL,         NULL),
 (8, 2, 'DUBLIN15',    15.00, '2023-01-01', '2025-06-30', 300),
 (9, 2, 'GIGBUDDY',    20.00, '2023-06-01', NULL,         NULL);

-- Orders: tenant 1 keeps a share of 6000 candidate rows depending on how popular each show is
-- (ids below 6000); tenant 2 has 1200 orders (ids 10001-11200).
INSERT INTO orders (id, promoter_id, patron_id, event_id, order_ts, channel, status, promo_code_id, qty)
SELECT s.n, 1, 1 + (s.n * 37) % 500, s.ev, s.ts,
       (ARRAY['web','web','app','box_office','web','app','reseller'])[1 + s.n % 7],
       CASE WHEN e.status = 'cancelled' THEN 'refunded'
            WHEN s.n % 53 = 0 THEN 'cancelled'
            WHEN s.n % 41 = 0 THEN 'refunded'
            WHEN s.n % 29 = 0 THEN 'partially_refunded'
            WHEN e.status IN ('on_sale','sold_out') AND s.n % 4 = 0 THEN 'pending'
            ELSE 'paid' END,
       CASE WHEN s.n % 9 = 0 THEN (ARRAY[1,1,2,1,3,2,1])[1 + (s.n / 9) % 7]
            WHEN s.n % 5 = 0 AND s.ts >= '2024-06-01' AND s.ts < '2024-09-01' THEN 4
            WHEN s.n % 4 = 0 AND s.ts >= '2025-01-01' AND s.ts < '2025-02-01' THEN 5
            WHEN s.n % 97 = 0 THEN 6
            ELSE NULL END,
       CASE WHEN s.n % 29 = 0 THEN 2 + s.n % 3 ELSE 1 + (s.n * 3) % 5 % 4 END
FROM (SELECT n, 1 + (n * 7) % 72 AS ev,
             ev.event_dt - ((n % 60) + 1) * interval '1 day' - (n % 13) * interval '1 hour' + (n % 47) * interval '1 minute' AS ts
      FROM generate_series(1, 6000) AS n
      JOIN events ev ON ev.id = 1 + (n * 7) % 72) s
JOIN events e ON e.id = s.ev
WHERE e.status <> 'draft'
  AND (s.n / 72) % 10 < 3 + (s.ev * 5) % 8;

INSERT INTO orders (id, promoter_id, patron_id, event_id, order_ts, channel, status, promo_code_id, qty)
SELECT 10000 + s.n, 2, 501 + (s.n * 23) % 250, s.ev, s.ts,
       (ARRAY['web','app','web','box_office','reseller'])[1 + s.n % 5],
       CASE WHEN e.status = 'cancelled' THEN 'refunded'
            WHEN s.n % 47 = 0 THEN 'cancelled'
            WHEN s.n % 31 = 0 THEN 'refunded'
            WHEN s.n % 23 = 0 THEN 'partially_refunded'
            WHEN e.status IN ('on_sale','sold_out') AND s.n % 5 = 0 THEN 'pending'
            ELSE 'paid' END,
       CASE WHEN s.n % 8 = 0 THEN 7 + (s.n / 8) % 3 ELSE NULL END,
       CASE WHEN s.n % 23 = 0 THEN 2 + s.n % 2 ELSE 1 + s.n % 4 END
FROM (SELECT n, 73 + (n * 5) % 36 AS ev,
             ev.event_dt - ((n % 45) + 2) * interval '1 day' - (n % 11) * interval '1 hour' AS ts
      FROM generate_series(1, 1200) AS n
      JOIN events ev ON ev.id = 73 + (n * 5) % 36) s
JOIN events e ON e.id = s.ev;

-- Tickets: one row per ticket in each order.
INSERT INTO tickets (id, promoter_id, order_id, tier_id, barcode, seat_ref, price_paid, status)
SELECT row_number() OVER (ORDER BY o.id, j),
       o.promoter_id, o.id,
       (o.event_id - 1) * 3 + CASE WHEN (o.id + j) % 5 IN (0, 1, 2) THEN 1 WHEN (o.id + j) % 5 = 3 THEN 3 ELSE 2 END,
       CASE WHEN o.promoter_id = 1 THEN 'NLL' ELSE 'HSP' END || lpad((o.id * 10 + j)::text, 8, '0'),
       CASE WHEN v.is_seated THEN chr(65 + (o.id % 20)) || '-' || (1 + (o.id * 3 + j) % 30) ELSE NULL END,
       0, -- priced below
       CASE WHEN o.status = 'cancelled' THEN 'void'
            WHEN o.status = 'refunded' THEN 'refunded'
            WHEN o.status = 'partially_refunded' AND j = 1 THEN 'refunded'
            ELSE 'valid' END
FROM orders o
JOIN events e ON e.id = o.event_id
JOIN venues v ON v.id = e.venue_id
CROSS JOIN LATERAL generate_series(1, o.qty) AS j;

UPDATE tickets t
SET price_paid = round(tt.face_value * (1 - COALESCE(pc.pct_off, 0) / 100.0), 2)
FROM ticket_tiers tt, orders o
LEFT JOIN promo_codes pc ON pc.id = o.promo_code_id
WHERE tt.id = t.tier_id AND o.id = t.order_id;

UPDATE orders o
SET fees_amt = CASE WHEN o.channel = 'box_office' THEN 0
                    WHEN o.channel = 'reseller' THEN o.qty * (3.00 + (o.id % 9) * 0.05)
                    ELSE o.qty * (1.50 + (o.id % 9) * 0.05) END;

UPDATE orders o
SET total = s.tix + o.fees_amt
FROM (SELECT order_id, SUM(price_paid) AS tix FROM tickets GROUP BY order_id) s
WHERE s.order_id = o.id;

-- Door scans for shows that have taken place: most valid tickets are admitted (about 1 in 10 is a
-- no-show), some tickets are scanned twice, and some refunded tickets are tried at the door.
INSERT INTO door_scans (id, promoter_id, ticket_id, scanned_at, gate, result, device_ref)
SELECT row_number() OVER (ORDER BY x.scanned_at, x.ticket_id, x.result), x.promoter_id, x.ticket_id, x.scanned_at, x.gate, x.result, x.device_ref
FROM (
    SELECT t.promoter_id, t.id AS ticket_id,
           e.event_dt - interval '60 minutes' + (t.id % 95) * interval '1 minute' AS scanned_at,
           CASE WHEN tt.tier_name = 'VIP' THEN 'VIP' WHEN t.id % 3 = 0 THEN 'North' ELSE 'Main' END AS gate,
           'admitted' AS result,
           CASE WHEN t.id % 11 = 0 THEN NULL ELSE 'SCN-' || (1 + t.id % 6) END AS device_ref
    FROM tickets t
    JOIN ticket_tiers tt ON tt.id = t.tier_id
    JOIN events e ON e.id = tt.event_id
    WHERE e.status = 'completed' AND t.status = 'valid' AND t.id % 10 <> 0
    UNION ALL
    SELECT t.promoter_id, t.id,
           e.event_dt - interval '40 minutes' + (t.id % 80) * interval '1 minute',
           'Main', 'rejected_duplicate', 'SCN-' || (1 + t.id % 6)
    FROM tickets t
    JOIN ticket_tiers tt ON tt.id = t.tier_id
    JOIN events e ON e.id = tt.event_id
    WHERE e.status = 'completed' AND t.status = 'valid' AND t.id % 37 = 0
    UNION ALL
    SELECT t.promoter_id, t.id,
           e.event_dt - interval '20 minutes' + (t.id % 30) * interval '1 minute',
           'Main', 'rejected_invalid', 'SCN-' || (1 + t.id % 6)
    FROM tickets t
    JOIN ticket_tiers tt ON tt.id = t.tier_id
    JOIN events e ON e.id = tt.event_id
    WHERE e.status = 'completed' AND t.status IN ('refunded','void') AND t.id % 3 = 0
) x;

-- Refunds: full refunds for refunded orders, one ticket back for partially refunded orders.
INSERT INTO refunds (id, promoter_id, order_id, refund_amt, refund_dt, reason, method, processed_by)
SELECT row_number() OVER (ORDER BY o.id), o.promoter_id, o.id,
       CASE WHEN o.status = 'refunded' THEN o.total
            ELSE (SELECT t.price_paid FROM tickets t WHERE t.order_id = o.id AND t.status = 'refunded' LIMIT 1) END,
       CASE WHEN e.status = 'cancelled' THEN e.event_dt::date - 5
            ELSE o.order_ts::date + 3 + o.id % 10 END,
       CASE WHEN e.status = 'cancelled' THEN 'event_cancelled'
            ELSE (ARRAY['customer_request','customer_request','duplicate_charge','fraud_check','customer_request'])[1 + o.id % 5] END,
       CASE WHEN o.id % 4 = 0 AND e.status <> 'cancelled' THEN 'credit_voucher' ELSE 'original_card' END,
       CASE WHEN e.status = 'cancelled' THEN NULL
            WHEN o.promoter_id = 1 THEN (ARRAY['Priya Shah','Tom Fletcher','Gemma Lowe'])[1 + o.id % 3]
            ELSE (ARRAY['Declan Hayes','Maeve Kinsella'])[1 + o.id % 2] END
FROM orders o
JOIN events e ON e.id = o.event_id
WHERE o.status IN ('refunded', 'partially_refunded');
