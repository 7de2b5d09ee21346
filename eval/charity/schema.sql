-- Fundraising CRM shared by several independent UK charities.
-- Each charity keeps its own supporters, donations, regular giving (direct debit) mandates,
-- campaigns, events and event sign-ups, volunteers and their shifts, grant applications
-- and Gift Aid claims to HMRC on the platform.
-- charities is the tenant registry; every other table carries charity_id (the tenant).
-- All money amounts are in GBP. Data is a snapshot taken on 2026-04-30: nothing after that date
-- has happened yet (later events and volunteer shifts are only booked).

CREATE TABLE charities (
    id             integer PRIMARY KEY,
    name           text NOT NULL,
    charity_no     varchar(10) NOT NULL,
    hq_city        text,
    onboarded_dt   date NOT NULL
);
COMMENT ON TABLE charities IS 'Charities (tenants) using the fundraising CRM.';
COMMENT ON COLUMN charities.charity_no IS 'Registered charity number (Charity Commission or OSCR).';

CREATE TABLE supporters (
    id             integer PRIMARY KEY,
    charity_id     integer NOT NULL REFERENCES charities(id),
    supporter_ref  varchar(12) NOT NULL,
    first_nm       text NOT NULL,
    last_nm        text NOT NULL,
    org_nm         text,
    supporter_type text NOT NULL,
    email          text,
    city           text NOT NULL,
    ga_decl_flg    boolean NOT NULL DEFAULT false,
    email_opt_in   boolean NOT NULL DEFAULT false,
    status         text NOT NULL,
    source_cd      varchar(4) NOT NULL,
    created_at     timestamp NOT NULL
);
COMMENT ON TABLE supporters IS 'Donors and other supporters (people, or companies / community groups) known to the charity.';
COMMENT ON COLUMN supporters.supporter_ref IS 'Supporter number printed on letters and receipts.';
COMMENT ON COLUMN supporters.org_nm IS 'Organisation name for organisation supporters; first_nm / last_nm then hold the contact person.';
COMMENT ON COLUMN supporters.supporter_type IS 'individual or organisation.';
COMMENT ON COLUMN supporters.ga_decl_flg IS 'Supporter has signed a Gift Aid declaration (UK taxpayer), so their gifts can be claimed on.';
COMMENT ON COLUMN supporters.email_opt_in IS 'Supporter has consented to marketing emails.';
COMMENT ON COLUMN supporters.status IS 'active, lapsed (no longer giving), deceased or gone_away (post returned, no valid address).';
COMMENT ON COLUMN supporters.source_cd IS 'How the supporter was recruited: WEB website, DM direct mail, EVT event, F2F face-to-face / street, TEL telephone, REF referred by a friend.';
COMMENT ON COLUMN supporters.created_at IS 'When the supporter record was created.';

CREATE TABLE campaigns (
    id             integer PRIMARY KEY,
    charity_id     integer NOT NULL REFERENCES charities(id),
    campaign_cd    varchar(12) NOT NULL,
    campaign_nm    text NOT NULL,
    channel        text NOT NULL,
    start_dt       date NOT NULL,
    end_dt         date NOT NULL,
    target_amt     numeric(12,2),
    budget_amt     numeric(12,2),
    restricted_flg boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE campaigns IS 'Fundraising appeals and campaigns that donations are coded to.';
COMMENT ON COLUMN campaigns.channel IS 'Main channel: direct_mail, email, digital, telephone or events.';
COMMENT ON COLUMN campaigns.target_amt IS 'Amount the campaign aims to raise.';
COMMENT ON COLUMN campaigns.budget_amt IS 'Amount budgeted to spend on running the campaign.';
COMMENT ON COLUMN campaigns.restricted_flg IS 'Money raised is restricted to a specific project and cannot be spent on general running costs.';

CREATE TABLE regular_gifts (
    id             integer PRIMARY KEY,
    charity_id     integer NOT NULL REFERENCES charities(id),
    supporter_id   integer NOT NULL REFERENCES supporters(id),
    mandate_ref    varchar(18) NOT NULL,
    freq           text NOT NULL,
    amt            numeric(10,2) NOT NULL,
    start_dt       date NOT NULL,
    cancelled_dt   date,
    status         text NOT NULL,
    cancel_rsn     text
);
COMMENT ON TABLE regular_gifts IS 'Regular giving mandates: direct debits where a supporter gives a fixed amount on a schedule.';
COMMENT ON COLUMN regular_gifts.mandate_ref IS 'Direct debit mandate reference (BACS / AUDDIS).';
COMMENT ON COLUMN regular_gifts.freq IS 'monthly, quarterly or annual.';
COMMENT ON COLUMN regular_gifts.amt IS 'Amount collected each time the direct debit runs.';
COMMENT ON COLUMN regular_gifts.status IS 'active, paused (supporter asked for a payment holiday) or cancelled.';
COMMENT ON COLUMN regular_gifts.cancelled_dt IS 'Date the mandate was cancelled; empty unless cancelled.';

CREATE TABLE donations (
    id             integer PRIMARY KEY,
    charity_id     integer NOT NULL REFERENCES charities(id),
    supporter_id   integer NOT NULL REFERENCES supporters(id),
    campaign_id    integer,
    mandate_id     integer,
    gift_dt        date NOT NULL,
    amt            numeric(10,2) NOT NULL,
    pay_method     text NOT NULL,
    status         text NOT NULL,
    ga_eligible    boolean NOT NULL DEFAULT false,
    ga_claim_id    integer,
    in_mem_flg     boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE donations IS 'Every gift received: one-off donations and each direct debit collection of a regular gift.';
COMMENT ON COLUMN donations.campaign_id IS 'Campaign / appeal the gift is coded to (campaigns.id); empty for unsolicited general donations.';
COMMENT ON COLUMN donations.mandate_id IS 'Regular giving mandate (regular_gifts.id) this collection belongs to; empty for one-off gifts.';
COMMENT ON COLUMN donations.gift_dt IS 'Date the gift was received.';
COMMENT ON COLUMN donations.pay_method IS 'card, direct_debit, paypal, cash, cheque or bank_transfer.';
COMMENT ON COLUMN donations.status IS 'received, failed (payment bounced) or refunded.';
COMMENT ON COLUMN donations.ga_eligible IS 'Gift can have Gift Aid (25%) claimed on it from HMRC.';
COMMENT ON COLUMN donations.ga_claim_id IS 'Gift Aid claim (gift_aid_claims.id) this gift was included in; empty if not claimed yet or not eligible.';
COMMENT ON COLUMN donations.in_mem_flg IS 'Gift made in memory of someone who has died.';

CREATE TABLE events (
    id             integer PRIMARY KEY,
    charity_id     integer NOT NULL REFERENCES charities(id),
    event_nm       text NOT NULL,
    event_type     text NOT NULL,
    event_dt       date NOT NULL,
    city           text NOT NULL,
    capacity       integer,
    reg_fee_amt    numeric(8,2) NOT NULL,
    min_sponsor_amt numeric(8,2)
);
COMMENT ON TABLE events IS 'Fundraising events: challenge events (runs, treks), galas, community events and virtual events.';
COMMENT ON COLUMN events.event_type IS 'challenge, gala, community or virtual.';
COMMENT ON COLUMN events.capacity IS 'Maximum number of places; empty when unlimited.';
COMMENT ON COLUMN events.reg_fee_amt IS 'Registration fee / ticket price per place.';
COMMENT ON COLUMN events.min_sponsor_amt IS 'Minimum sponsorship each participant pledges to raise (challenge events only).';

CREATE TABLE event_registrations (
    id             integer PRIMARY KEY,
    charity_id     integer NOT NULL REFERENCES charities(id),
    event_id       integer NOT NULL REFERENCES events(id),
    supporter_id   integer NOT NULL REFERENCES supporters(id),
    reg_ts         timestamp NOT NULL,
    status         text NOT NULL,
    fee_paid_amt   numeric(8,2) NOT NULL,
    sponsor_amt    numeric(10,2)
);
COMMENT ON TABLE event_registrations IS 'Supporters signed up to take part in or attend an event.';
COMMENT ON COLUMN event_registrations.reg_ts IS 'When the supporter signed up.';
COMMENT ON COLUMN event_registrations.status IS 'registered (event still to come), attended, no_show or cancelled.';
COMMENT ON COLUMN event_registrations.fee_paid_amt IS 'Registration fee actually paid (0 for free / complimentary places).';
COMMENT ON COLUMN event_registrations.sponsor_amt IS 'Sponsorship money raised by the participant; challenge events only.';

CREATE TABLE volunteers (
    id             integer PRIMARY KEY,
    charity_id     integer NOT NULL REFERENCES charities(id),
    supporter_id   integer,
    first_nm       text NOT NULL,
    last_nm        text NOT NULL,
    email          text,
    pref_role      text NOT NULL,
    dbs_chk_dt     date,
    start_dt       date NOT NULL,
    active         boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE volunteers IS 'People who give their time to the charity.';
COMMENT ON COLUMN volunteers.supporter_id IS 'Matching supporter record (supporters.id) when the volunteer is also a donor / supporter.';
COMMENT ON COLUMN volunteers.pref_role IS 'Preferred kind of volunteering: shop, events, office, collections or driving.';
COMMENT ON COLUMN volunteers.dbs_chk_dt IS 'Date of the volunteer''s latest DBS (criminal record) check; empty if never checked.';

CREATE TABLE volunteer_shifts (
    id             integer PRIMARY KEY,
    charity_id     integer NOT NULL REFERENCES charities(id),
    volunteer_id   integer NOT NULL REFERENCES volunteers(id),
    event_id       integer,
    shift_dt       date NOT NULL,
    hrs            numeric(4,1) NOT NULL,
    role_cd        varchar(10) NOT NULL,
    location       text NOT NULL,
    status         text NOT NULL
);
COMMENT ON TABLE volunteer_shifts IS 'Volunteer shifts booked / worked.';
COMMENT ON COLUMN volunteer_shifts.event_id IS 'Event (events.id) the shift was helping at; empty for shifts not tied to an event.';
COMMENT ON COLUMN volunteer_shifts.hrs IS 'Length of the shift in hours.';
COMMENT ON COLUMN volunteer_shifts.role_cd IS 'SHOP charity shop, MARSHAL event marshal, OFFICE admin, COLLECT bucket collection, DRIVER.';
COMMENT ON COLUMN volunteer_shifts.status IS 'scheduled (still to come), completed, no_show or cancelled.';

CREATE TABLE grants (
    id             integer PRIMARY KEY,
    charity_id     integer NOT NULL REFERENCES charities(id),
    funder_nm      text NOT NULL,
    funder_type    text NOT NULL,
    project_nm     text NOT NULL,
    submitted_dt   date NOT NULL,
    requested_amt  numeric(12,2) NOT NULL,
    awarded_amt    numeric(12,2),
    decision_dt    date,
    status         text NOT NULL,
    multi_yr_flg   boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE grants IS 'Grant applications made to trusts, foundations, the lottery, companies and public bodies.';
COMMENT ON COLUMN grants.funder_type IS 'trust, lottery, corporate, local_authority or government.';
COMMENT ON COLUMN grants.requested_amt IS 'Amount asked for in the application.';
COMMENT ON COLUMN grants.awarded_amt IS 'Amount the funder agreed to give; only filled when awarded.';
COMMENT ON COLUMN grants.status IS 'pending (awaiting decision), awarded, rejected or withdrawn.';
COMMENT ON COLUMN grants.multi_yr_flg IS 'Funding is spread over more than one year.';

CREATE TABLE gift_aid_claims (
    id              integer PRIMARY KEY,
    charity_id      integer NOT NULL REFERENCES charities(id),
    claim_ref       varchar(20) NOT NULL,
    period_start_dt date NOT NULL,
    period_end_dt   date NOT NULL,
    submitted_dt    date NOT NULL,
    donations_amt   numeric(12,2) NOT NULL DEFAULT 0,
    claim_amt       numeric(12,2) NOT NULL DEFAULT 0,
    status          text NOT NULL,
    paid_dt         date,
    hmrc_ref        varchar(16)
);
COMMENT ON TABLE gift_aid_claims IS 'Gift Aid repayment claims submitted to HMRC, each covering the eligible gifts received in a period.';
COMMENT ON COLUMN gift_aid_claims.donations_amt IS 'Total of the eligible donations included in the claim.';
COMMENT ON COLUMN gift_aid_claims.claim_amt IS 'Gift Aid reclaimed from HMRC (25% of donations_amt).';
COMMENT ON COLUMN gift_aid_claims.status IS 'submitted (awaiting HMRC), paid or rejected.';
COMMENT ON COLUMN gift_aid_claims.paid_dt IS 'Date HMRC paid the claim.';

-- ---------------------------------------------------------------------------
-- Seed data (deterministic)
-- ---------------------------------------------------------------------------

INSERT INTO charities (id, name, charity_no, hq_city, onboarded_dt) VALUES
 (1, 'Brightwater Children''s Trust',  '1098234',  'Bristol', '2022-09-01'),
 (2, 'Fellside Mountain Rescue',       'SC045671', 'Kendal',  '2022-11-15'),
 (3, 'Ashgrove Animal Sanctuary',      '1143350',  'Norwich', '2023-02-20');

-- supporters: tenant 1 ids 1-400, tenant 2 ids 401-650, tenant 3 ids 651-800
INSERT INTO supporters (id, charity_id, supporter_ref, first_nm, last_nm, org_nm, supporter_type, email, city,
                        ga_decl_flg, email_opt_in, status, source_cd, created_at)
SELECT t.off + g, t.cid,
       t.pfx || lpad((10000 + g * 7)::text, 6, '0'),
       (ARRAY['Oliver','Amelia','George','Isla','Harry','Ava','Jack','Mia','Noah','Grace',
              'Leo','Freya','Arthur','Lily','Oscar','Emily','Thomas','Poppy','Charlie','Sophie',
              'Margaret','David','Susan','Peter','Janet','Michael','Helen'])[1 + (g * 3 + t.cid) % 27],
       (ARRAY['Smith','Jones','Taylor','Brown','Williams','Wilson','Davies','Evans','Thomas','Roberts',
              'Walker','Wright','Hughes','Green','Hall','Wood','Clarke','Patel','Khan','Lewis',
              'Harris','Morgan','Cooper','Ward','Bennett','Murray','Fletcher'])[1 + (g / 27 + g * 5) % 27],
       CASE WHEN g % 12 = 0 THEN
            (ARRAY['Avon Rotary Club','Harbour Building Society','Clifton Round Table','Severn Print Works','Redland WI',
                   'Temple Quay Solicitors','Kingswood Lions','Westbury Motors','Brunel Tech Ltd','Old Market Traders',
                   'Stokes Croft Bakery','Southville Church','Lakeland Outdoor Ltd','Hawthorn Dental','Riverside Cafe',
                   'Millbrook Builders','Oakfield School PTA','Cotswold Brewing Co','Quayside Hotel','Ashton Gate FC Trust'])[1 + (g / 12 + t.cid * 3) % 20]
       END,
       CASE WHEN g % 12 = 0 THEN 'organisation' ELSE 'individual' END,
       CASE WHEN g % 9 = 0 THEN NULL ELSE 'supp' || (t.off + g) || '@example.org.uk' END,
       (ARRAY['Bristol','Bath','London','Cardiff','Gloucester','Bristol','Swindon','Exeter','Bristol','Birmingham',
              'Manchester','Kendal','Leeds','Taunton','Norwich','Bath'])[1 + (g * 7 + g / 11 + t.cid * 5) % 16],
       (g % 12 <> 0 AND g % 3 <> 0),
       (g % 4 <> 1),
       CASE WHEN g % 37 = 0 THEN 'deceased'
            WHEN g % 29 = 0 THEN 'gone_away'
            WHEN g % 7 = 0 THEN 'lapsed'
            ELSE 'active' END,
       (ARRAY['WEB','DM','EVT','F2F','WEB','REF','TEL','DM'])[1 + (g * 3 + g / 10) % 8],
       timestamp '2023-01-02 08:00' + ((g * 41) % 1180) * interval '1 day' + ((g * 37) % 600) * interval '1 minute'
FROM (VALUES (1, 0, 400, 'BCT'), (2, 400, 250, 'FMR'), (3, 650, 150, 'AAS')) AS t(cid, off, n, pfx),
     generate_series(1, t.n) AS g;

-- campaigns: tenant 1 ids 1-12, tenant 2 ids 13-20, tenant 3 ids 21-26
INSERT INTO campaigns (id, charity_id, campaign_cd, campaign_nm, channel, start_dt, end_dt, target_amt, budget_amt, restricted_flg) VALUES
 (1,  1, 'SPR23',  'Spring Appeal 2023',        'email',       '2023-03-01', '2023-05-31',  8000.00,  1200.00, false),
 (2,  1, 'TOY23',  'Toy Library Fund',          'digital',     '2023-06-01', '2023-10-31',  5000.00,   800.00, true),
 (3,  1, 'XMAS23', 'Christmas Appeal 2023',     'direct_mail', '2023-11-01', '2024-01-15', 25000.00,  6000.00, false),
 (4,  1, 'SENS24', 'Sensory Room Build',        'digital',     '2024-02-01', '2024-08-31', 40000.00,  3000.00, true),
 (5,  1, 'SUM24',  'Summer Appeal 2024',        'telephone',   '2024-09-01', '2024-10-31', 10000.00,  2500.00, false),
 (6,  1, 'XMAS24', 'Christmas Appeal 2024',     'direct_mail', '2024-11-01', '2025-01-15', 30000.00,  7000.00, false),
 (7,  1, 'LEG25',  'Gifts in Wills 2025',       'direct_mail', '2025-02-01', '2025-04-30',  5000.00,  4000.00, false),
 (8,  1, 'SPR25',  'Spring Appeal 2025',        'email',       '2025-05-01', '2025-06-30',  9000.00,  1000.00, false),
 (9,  1, 'SUM25',  'Summer Appeal 2025',        'telephone',   '2025-07-01', '2025-09-30', 12000.00,  2800.00, false),
 (10, 1, 'RUN25',  'Run for Brightwater 2025',  'events',      '2025-10-01', '2025-10-31',  6000.00,  1500.00, false),
 (11, 1, 'XMAS25', 'Christmas Appeal 2025',     'direct_mail', '2025-11-01', '2026-01-15', 32000.00,  7500.00, false),
 (12, 1, 'RESP26', 'Emergency Respite Appeal',  'digital',     '2026-02-01', '2026-04-30', 15000.00,  2000.00, true),
 (13, 2, 'XMAS23', 'Christmas Appeal 2023',     'direct_mail', '2023-11-01', '2024-01-31', 15000.00,  3000.00, false),
 (14, 2, 'VEH24',  'New Rescue Vehicle',        'digital',     '2024-02-01', '2024-09-30', 60000.00,  2500.00, true),
 (15, 2, 'XMAS24', 'Christmas Appeal 2024',     'direct_mail', '2024-11-01', '2025-01-31', 18000.00,  3500.00, false),
 (16, 2, 'SPR25',  'Spring Appeal 2025',        'email',       '2025-03-01', '2025-05-31',  7000.00,   900.00, false),
 (17, 2, 'KIT25',  'Radio Kit Upgrade',         'telephone',   '2025-06-01', '2025-10-31', 20000.00,  2200.00, true),
 (18, 2, 'XMAS25', 'Christmas Appeal 2025',     'direct_mail', '2025-11-01', '2026-01-31', 20000.00,  3800.00, false),
 (19, 2, 'SPR23',  'Spring Appeal 2023',        'email',       '2023-03-01', '2023-05-31',  6000.00,   700.00, false),
 (20, 2, 'WIN26',  'Winter Callouts Appeal',    'digital',     '2026-02-01', '2026-04-30',  9000.00,  1100.00, false),
 (21, 3, 'XMAS23', 'Christmas Appeal 2023',     'direct_mail', '2023-11-01', '2024-01-15', 12000.00,  2500.00, false),
 (22, 3, 'KEN24',  'New Kennels Fund',          'digital',     '2024-03-01', '2024-11-30', 35000.00,  2000.00, true),
 (23, 3, 'XMAS24', 'Christmas Appeal 2024',     'direct_mail', '2024-11-01', '2025-01-15', 14000.00,  2700.00, false),
 (24, 3, 'SPR25',  'Spring Appeal 2025',        'email',       '2025-03-01', '2025-05-31',  5000.00,   600.00, false),
 (25, 3, 'VET25',  'Vet Bills Appeal',          'telephone',   '2025-07-01', '2025-10-31', 10000.00,  1800.00, true),
 (26, 3, 'XMAS25', 'Christmas Appeal 2025',     'direct_mail', '2025-11-01', '2026-01-15', 15000.00,  3000.00, false);

-- regular giving mandates: tenant 1 ids 1-90, tenant 2 ids 91-140, tenant 3 ids 141-170
INSERT INTO regular_gifts (id, charity_id, supporter_id, mandate_ref, freq, amt, start_dt, cancelled_dt, status, cancel_rsn)
SELECT m.id, m.cid, m.sid, m.mref, m.freq,
       CASE m.freq WHEN 'monthly' THEN m.base WHEN 'quarterly' THEN m.base * 3 ELSE m.base * 12 END,
       m.start_dt,
       CASE WHEN m.st = 'cancelled' THEN LEAST(date '2026-04-20', m.start_dt + 60 + (m.g * 47) % 700) END,
       m.st,
       CASE WHEN m.st = 'cancelled' THEN (ARRAY['Financial reasons','No reason given','Supporting another charity','Financial reasons','Moved abroad','Unhappy with contact'])[1 + (m.g / 3) % 6] END
FROM (
    SELECT t.moff + g AS id, t.cid, g,
           t.soff + 1 + (g * 13) % t.sn AS sid,
           'DD' || t.pfx || lpad((g * 11 + 500)::text, 7, '0') AS mref,
           (ARRAY['monthly','monthly','monthly','quarterly','monthly','monthly','annual','monthly','quarterly','monthly'])[1 + (g * 3) % 10] AS freq,
           (ARRAY[5, 8, 10, 10, 15, 20, 25, 12, 10, 5])[1 + (g * 7 + g / 10) % 10]::numeric(10,2) AS base,
           date '2023-01-01' + ((g * 53) % 1150) AS start_dt,
           CASE WHEN g % 4 = 0 THEN 'cancelled' WHEN g % 11 = 0 THEN 'paused' ELSE 'active' END AS st
    FROM (VALUES (1, 0, 90, 0, 400, 'BCT'), (2, 90, 50, 400, 250, 'FMR'), (3, 140, 30, 650, 150, 'AAS')) AS t(cid, moff, n, soff, sn, pfx),
         generate_series(1, t.n) AS g
) AS m;

-- one-off donations: tenant 1 ids 1-900, tenant 2 ids 901-1400, tenant 3 ids 1401-1700
INSERT INTO donations (id, charity_id, supporter_id, campaign_id, mandate_id, gift_dt, amt, pay_method, status, ga_eligible, ga_claim_id, in_mem_flg)
SELECT d.id, d.cid, d.sid,
       CASE WHEN d.g % 5 = 0 THEN NULL ELSE
            (SELECT c.id FROM campaigns c WHERE c.charity_id = d.cid AND d.gift_dt BETWEEN c.start_dt AND c.end_dt
             ORDER BY (c.id * d.g) % 7, c.id LIMIT 1) END,
       NULL, d.gift_dt,
       round((CASE WHEN s.supporter_type = 'organisation' THEN 8 ELSE 1 END)
             * (ARRAY[5, 10, 10, 20, 25, 25, 50, 15, 100, 30, 250, 20, 10, 50, 500, 35, 40, 75])[1 + (d.g * 7 + d.g / 13) % 18]
             * (CASE d.cid WHEN 1 THEN 1.0 WHEN 2 THEN 1.2 ELSE 0.8 END), 2),
       (ARRAY['card','card','paypal','cash','cheque','bank_transfer','card','paypal','card','cash'])[1 + (d.g * 5 + d.g / 9) % 10],
       CASE WHEN d.g % 41 = 0 THEN 'refunded' WHEN d.g % 31 = 0 THEN 'failed' ELSE 'received' END,
       (s.ga_decl_flg AND s.supporter_type = 'individual'),
       NULL,
       (d.g % 19 = 0)
FROM (
    SELECT t.doff + g AS id, t.cid, g, t.soff + 1 + (g * 7 + g / 50) % t.sn AS sid, t.soff, t.sn
    FROM (VALUES (1, 0, 900, 0, 400), (2, 900, 500, 400, 250), (3, 1400, 300, 650, 150)) AS t(cid, doff, n, soff, sn),
         generate_series(1, t.n) AS g
) AS b
JOIN supporters s ON s.id = b.sid
CROSS JOIN LATERAL (
    SELECT b.id, b.cid, b.g, b.sid,
           s.created_at::date + (b.g * 29) % GREATEST(1, date '2026-04-30' - s.created_at::date) AS gift_dt
) AS d;

-- direct debit collections for every regular gift, from its start until it was cancelled / paused / the snapshot date
INSERT INTO donations (id, charity_id, supporter_id, campaign_id, mandate_id, gift_dt, amt, pay_method, status, ga_eligible, ga_claim_id, in_mem_flg)
SELECT 2000 + row_number() OVER (ORDER BY r.id, k), r.charity_id, r.supporter_id, NULL, r.id,
       (r.start_dt + (k * CASE r.freq WHEN 'monthly' THEN 1 WHEN 'quarterly' THEN 3 ELSE 12 END) * interval '1 month')::date,
       r.amt, 'direct_debit',
       CASE WHEN (r.id * 7 + k) % 23 = 0 THEN 'failed' ELSE 'received' END,
       (s.ga_decl_flg AND s.supporter_type = 'individual'),
       NULL, false
FROM regular_gifts r
JOIN supporters s ON s.id = r.supporter_id
CROSS JOIN LATERAL generate_series(0, 45) AS k
WHERE (r.start_dt + (k * CASE r.freq WHEN 'monthly' THEN 1 WHEN 'quarterly' THEN 3 ELSE 12 END) * interval '1 month')::date
      < LEAST(COALESCE(r.cancelled_dt, date '2026-05-01'),
              CASE WHEN r.status = 'paused' THEN date '2025-12-01' ELSE date '2026-05-01' END);

-- Gift Aid claims: tenant 1 claims quarterly, tenant 2 half-yearly, tenant 3 yearly
INSERT INTO gift_aid_claims (id, charity_id, claim_ref, period_start_dt, period_end_dt, submitted_dt, status, paid_dt, hmrc_ref)
SELECT c.id, c.cid, c.ref, c.ps, c.pe, c.pe + 18 + (c.id * 7) % 20,
       CASE WHEN c.cid = 1 AND c.ps = date '2026-01-01' THEN 'submitted'
            WHEN c.cid = 1 AND c.ps = date '2023-07-01' THEN 'rejected'
            WHEN c.cid = 2 AND c.ps = date '2025-07-01' THEN 'submitted'
            ELSE 'paid' END,
       CASE WHEN (c.cid = 1 AND c.ps IN (date '2026-01-01', date '2023-07-01')) OR (c.cid = 2 AND c.ps = date '2025-07-01') THEN NULL
            ELSE c.pe + 18 + (c.id * 7) % 20 + 21 + (c.id * 5) % 15 END,
       'XR' || lpad((c.id * 7919 % 100000)::text, 5, '0') || c.cid
FROM (
    SELECT q AS id, 1 AS cid,
           'GA-BCT-' || to_char(date '2023-01-01' + (q - 1) * interval '3 months', 'YYYY') || 'Q' || (1 + (q - 1) % 4) AS ref,
           (date '2023-01-01' + (q - 1) * interval '3 months')::date AS ps,
           (date '2023-01-01' + q * interval '3 months' - interval '1 day')::date AS pe
    FROM generate_series(1, 13) AS q
    UNION ALL
    SELECT 13 + h, 2,
           'GA-FMR-' || to_char(date '2023-01-01' + (h - 1) * interval '6 months', 'YYYY') || 'H' || (1 + (h - 1) % 2),
           (date '2023-01-01' + (h - 1) * interval '6 months')::date,
           (date '2023-01-01' + h * interval '6 months' - interval '1 day')::date
    FROM generate_series(1, 6) AS h
    UNION ALL
    SELECT 19 + y, 3,
           'GA-AAS-' || (2022 + y),
           make_date(2022 + y, 1, 1), make_date(2022 + y, 12, 31)
    FROM generate_series(1, 3) AS y
) AS c;

UPDATE donations d SET ga_claim_id = g.id
FROM gift_aid_claims g
WHERE g.charity_id = d.charity_id AND d.ga_eligible AND d.status = 'received'
  AND d.gift_dt BETWEEN g.period_start_dt AND g.period_end_dt;

UPDATE gift_aid_claims g SET donations_amt = x.tot, claim_amt = round(x.tot * 0.25, 2)
FROM (SELECT ga_claim_id, SUM(amt) AS tot FROM donations WHERE ga_claim_id IS NOT NULL GROUP BY ga_claim_id) AS x
WHERE x.ga_claim_id = g.id;

-- events: tenant 1 ids 1-16, tenant 2 ids 17-26, tenant 3 ids 27-32
INSERT INTO events (id, charity_id, event_nm, event_type, event_dt, city, capacity, reg_fee_amt, min_sponsor_amt) VALUES
 (1,  1, 'Bristol 10K 2023',             'challenge', '2023-05-14', 'Bristol',   120,  25.00,  150.00),
 (2,  1, 'Summer Fete 2023',             'community', '2023-07-08', 'Bath',      NULL,  0.00,    NULL),
 (3,  1, 'Winter Gala Dinner 2023',      'gala',      '2023-12-01', 'Bristol',   150,  75.00,    NULL),
 (4,  1, 'Cabot Tower Sleepout 2024',    'challenge', '2024-02-23', 'Bristol',    80,  15.00,  100.00),
 (5,  1, 'London Marathon 2024',         'challenge', '2024-04-21', 'London',     30,  50.00, 2000.00),
 (6,  1, 'Virtual Step Challenge 2024',  'virtual',   '2024-06-01', 'Online',   NULL, 10.00,   50.00),
 (7,  1, 'Summer Fete 2024',             'community', '2024-07-13', 'Bath',      NULL,  0.00,    NULL),
 (8,  1, 'Winter Gala Dinner 2024',      'gala',      '2024-11-29', 'Bristol',   160,  80.00,    NULL),
 (9,  1, 'Bristol 10K 2025',             'challenge', '2025-05-11', 'Bristol',   150,  25.00,  150.00),
 (10, 1, 'London Marathon 2025',         'challenge', '2025-04-27', 'London',     30,  50.00, 2000.00),
 (11, 1, 'Quiz Night Spring 2025',       'community', '2025-03-21', 'Bristol',    90,  10.00,    NULL),
 (12, 1, 'Three Peaks Challenge 2025',   'challenge', '2025-09-06', 'Fort William', 40, 60.00, 750.00),
 (13, 1, 'Winter Gala Dinner 2025',      'gala',      '2025-11-28', 'Bristol',   160,  85.00,    NULL),
 (14, 1, 'Cabot Tower Sleepout 2026',    'challenge', '2026-02-27', 'Bristol',    80,  15.00,  100.00),
 (15, 1, 'London Marathon 2026',         'challenge', '2026-04-26', 'London',     30,  55.00, 2000.00),
 (16, 1, 'Bristol 10K 2026',             'challenge', '2026-05-10', 'Bristol',   150,  30.00,  150.00),
 (17, 2, 'Fell Race 2023',               'challenge', '2023-06-17', 'Kendal',    200,  20.00,  100.00),
 (18, 2, 'Winter Gala Dinner 2023',      'gala',      '2023-12-08', 'Kendal',    120,  60.00,    NULL),
 (19, 2, 'London Marathon 2024',         'challenge', '2024-04-21', 'London',     25,  50.00, 2000.00),
 (20, 2, 'Fell Race 2024',               'challenge', '2024-06-15', 'Kendal',    200,  20.00,  100.00),
 (21, 2, 'Open Day 2024',                'community', '2024-08-10', 'Kendal',   NULL,  0.00,    NULL),
 (22, 2, 'Fell Race 2025',               'challenge', '2025-06-14', 'Kendal',    220,  22.00,  100.00),
 (23, 2, 'London Marathon 2025',         'challenge', '2025-04-27', 'London',     25,  50.00, 2000.00),
 (24, 2, 'Winter Gala Dinner 2025',      'gala',      '2025-12-05', 'Kendal',    120,  65.00,    NULL),
 (25, 2, 'Three Peaks Challenge 2025',   'challenge', '2025-09-06', 'Fort William', 30, 60.00, 750.00),
 (26, 2, 'Fell Race 2026',               'challenge', '2026-06-13', 'Kendal',    220,  25.00,  100.00),
 (27, 3, 'Dog Show 2023',                'community', '2023-08-19', 'Norwich',  NULL,  5.00,    NULL),
 (28, 3, 'Sponsored Dog Walk 2024',      'challenge', '2024-05-18', 'Norwich',   300,  10.00,   50.00),
 (29, 3, 'Dog Show 2024',                'community', '2024-08-17', 'Norwich',  NULL,  5.00,    NULL),
 (30, 3, 'London Marathon 2025',         'challenge', '2025-04-27', 'London',     25,  50.00, 2000.00),
 (31, 3, 'Sponsored Dog Walk 2025',      'challenge', '2025-05-17', 'Norwich',   300,  10.00,   50.00),
 (32, 3, 'Winter Gala Dinner 2025',      'gala',      '2025-11-21', 'Norwich',   100,  70.00,    NULL);

-- event registrations: tenant 1 ids 1-380, tenant 2 ids 381-600, tenant 3 ids 601-720
INSERT INTO event_registrations (id, charity_id, event_id, supporter_id, reg_ts, status, fee_paid_amt, sponsor_amt)
SELECT r.id, r.cid, e.id, r.sid,
       e.event_dt - (8 + (r.g * 13) % 110) * interval '1 day' + ((r.g * 37) % 720) * interval '1 minute' + interval '8 hours',
       CASE WHEN e.event_dt > date '2026-04-30' THEN (CASE WHEN r.g % 9 = 0 THEN 'cancelled' ELSE 'registered' END)
            WHEN r.g % 9 = 0 THEN 'cancelled'
            WHEN r.g % 8 = 0 THEN 'no_show'
            ELSE 'attended' END,
       CASE WHEN r.g % 10 = 0 THEN 0 ELSE e.reg_fee_amt END,
       CASE WHEN e.event_type IN ('challenge', 'virtual') AND e.event_dt <= date '2026-04-30' AND r.g % 9 <> 0 AND r.g % 8 <> 0
            THEN round(e.min_sponsor_amt * (0.5 + ((r.g * 17) % 13) / 10.0) + ((r.g * 31) % 50), 2)
            WHEN e.event_type IN ('challenge', 'virtual') AND r.g % 9 <> 0 THEN 0 END
FROM (
    SELECT t.roff + g AS id, t.cid, g,
           t.eoff + 1 + (g * 7 + g / 40) % t.en AS eid,
           t.soff + 1 + (g * 11) % t.sn AS sid
    FROM (VALUES (1, 0, 380, 0, 16, 0, 400), (2, 380, 220, 16, 10, 400, 250), (3, 600, 120, 26, 6, 650, 150))
             AS t(cid, roff, n, eoff, en, soff, sn),
         generate_series(1, t.n) AS g
) AS r
JOIN events e ON e.id = r.eid;

-- volunteers: tenant 1 ids 1-60, tenant 2 ids 61-100, tenant 3 ids 101-125
INSERT INTO volunteers (id, charity_id, supporter_id, first_nm, last_nm, email, pref_role, dbs_chk_dt, start_dt, active)
SELECT t.voff + g, t.cid,
       CASE WHEN g % 3 = 0 THEN t.soff + 1 + (g * 17) % t.sn END,
       (ARRAY['Ruth','Alan','Priya','Gareth','Fiona','Marcus','Helen','Tom','Aisha','Rob',
              'Claire','Ian','Nadia','Owen','Joan','Dev','Megan','Stuart','Hannah'])[1 + (g * 5 + t.cid) % 19],
       (ARRAY['Whitfield','Okafor','Raman','Lloyd','McLeod','Hale','Ashby','Barker','Begum','Fenwick',
              'Dunmore','Prescott','Kowalski','Pritchard','Sutton','Mistry','Parry'])[1 + (g * 3 + g / 17) % 17],
       CASE WHEN g % 6 = 0 THEN NULL ELSE 'vol' || (t.voff + g) || '@example.org.uk' END,
       (ARRAY['shop','events','shop','office','collections','events','driving','shop'])[1 + (g * 3) % 8],
       CASE WHEN g % 5 = 0 THEN NULL ELSE date '2022-06-01' + (g * 67) % 1400 END,
       date '2023-01-09' + (g * 43) % 1150,
       (g % 7 <> 0)
FROM (VALUES (1, 0, 60, 0, 400), (2, 60, 40, 400, 250), (3, 100, 25, 650, 150)) AS t(cid, voff, n, soff, sn),
     generate_series(1, t.n) AS g;

-- volunteer shifts: tenant 1 ids 1-520, tenant 2 ids 521-780, tenant 3 ids 781-930
-- every 4th shift is marshalling at one of the charity's events, on the day of that event
INSERT INTO volunteer_shifts (id, charity_id, volunteer_id, event_id, shift_dt, hrs, role_cd, location, status)
SELECT x.id, x.cid, x.vid, x.eid, x.sdt,
       (ARRAY[3.0, 4.0, 2.5, 6.0, 3.5, 4.0, 8.0, 5.0, 3.0])[1 + (x.g * 5) % 9],
       x.role, x.loc,
       CASE WHEN x.sdt > date '2026-04-30' THEN 'scheduled'
            WHEN x.g % 13 = 0 THEN 'no_show'
            WHEN x.g % 11 = 0 THEN 'cancelled'
            ELSE 'completed' END
FROM (
    SELECT t.shoff + g AS id, t.cid, g,
           t.voff + 1 + (g * 7 + g / 30) % t.vn AS vid,
           CASE WHEN g % 4 = 0 THEN e.id END AS eid,
           CASE WHEN g % 4 = 0 THEN e.event_dt
                ELSE date '2023-02-01' + (g * 23 + g / 7) % 1230 END AS sdt,
           CASE WHEN g % 4 = 0 THEN 'MARSHAL'
                ELSE (ARRAY['SHOP','SHOP','OFFICE','COLLECT','SHOP','DRIVER','COLLECT'])[1 + (g * 3 + g / 4) % 7] END AS role,
           CASE WHEN g % 4 = 0 THEN e.city
                ELSE (ARRAY[t.city1, t.city1, t.city2, 'Head office', t.city1, t.city2])[1 + (g * 5) % 6] END AS loc
    FROM (VALUES (1, 0, 520, 0, 60, 0, 16, 'Bristol', 'Bath'), (2, 520, 260, 60, 40, 16, 10, 'Kendal', 'Ambleside'),
                 (3, 780, 150, 100, 25, 26, 6, 'Norwich', 'Cromer'))
             AS t(cid, shoff, n, voff, vn, eoff, en, city1, city2)
    CROSS JOIN LATERAL generate_series(1, t.n) AS g
    JOIN events e ON e.id = t.eoff + 1 + (g / 4 * 5) % t.en
) AS x;

-- grant applications: tenant 1 ids 1-26, tenant 2 ids 27-42, tenant 3 ids 43-54
INSERT INTO grants (id, charity_id, funder_nm, funder_type, project_nm, submitted_dt, requested_amt, awarded_amt, decision_dt, status, multi_yr_flg)
SELECT q.id, q.cid, q.funder, q.ftype, q.project, q.sub_dt, q.req,
       CASE WHEN q.st = 'awarded' THEN round(q.req * (0.6 + (q.g % 5) * 0.1), -2) END,
       CASE WHEN q.st IN ('awarded', 'rejected') THEN q.sub_dt + 60 + (q.g * 19) % 100 END,
       q.st, q.req >= 30000
FROM (
    SELECT p.*,
           CASE WHEN p.g % 13 = 0 THEN 'withdrawn'
                WHEN p.sub_dt + 60 + (p.g * 19) % 100 > date '2026-04-30' THEN 'pending'
                WHEN p.g % 3 = 0 THEN 'rejected'
                ELSE 'awarded' END AS st
    FROM (
        SELECT t.goff + g AS id, t.cid, g,
               f.funder, f.ftype,
               (CASE t.cid WHEN 1 THEN ARRAY['Family Support Workers','Sensory Room','Respite Breaks','Play Therapy','Toy Library']
                           WHEN 2 THEN ARRAY['Rescue Vehicle','Radio Equipment','Volunteer Training','Base Refurbishment','Drone Unit']
                           ELSE ARRAY['New Kennels','Vet Care','Rehoming Programme','Education Visits','Cattery'] END)[1 + (g * 2) % 5] AS project,
               date '2023-01-16' + (g * 97) % 1190 AS sub_dt,
               (ARRAY[5000, 10000, 2500, 25000, 50000, 7500, 15000, 40000, 3000, 12000, 100000, 8000])[1 + (g * 5 + t.cid) % 12]::numeric(12,2) AS req
        FROM (VALUES (1, 0, 26), (2, 26, 16), (3, 42, 12)) AS t(cid, goff, n)
        CROSS JOIN LATERAL generate_series(1, t.n) AS g
        CROSS JOIN LATERAL (
            SELECT (ARRAY['National Lottery Community Fund','Garfield Weston Foundation','Esmee Fairbairn Foundation','Bristol City Council',
                          'Tesco Stronger Starts','BBC Children in Need','Quartet Community Foundation','Lloyds Bank Foundation',
                          'Henry Smith Charity','Department for Education'])[1 + (g * 3 + t.cid) % 10] AS funder,
                   (ARRAY['lottery','trust','trust','local_authority','corporate','trust','trust','trust','trust','government'])[1 + (g * 3 + t.cid) % 10] AS ftype
        ) AS f
    ) AS p
) AS q;

ANALYZE;
