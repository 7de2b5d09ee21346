-- Recruitment / staffing platform shared by several independent UK recruitment agencies.
-- Each agency (firm) keeps its own consultants (recruiters), client companies, candidates,
-- vacancies, applications, interviews, placements, contractor timesheets and client invoices.
-- staffing_firms is the tenant registry; every other table carries firm_id (the tenant).
-- All money amounts are in GBP. Hourly rates are per hour.

CREATE TABLE staffing_firms (
    id            integer PRIMARY KEY,
    firm_nm       text NOT NULL,
    hq_city       text NOT NULL,
    co_reg_no     varchar(10),
    plan_tier     text NOT NULL,
    onboarded_dt  date NOT NULL
);
COMMENT ON TABLE staffing_firms IS 'Recruitment agencies (tenants) using the platform.';
COMMENT ON COLUMN staffing_firms.co_reg_no IS 'Companies House registration number.';
COMMENT ON COLUMN staffing_firms.plan_tier IS 'Platform subscription plan: starter, growth or enterprise.';

CREATE TABLE consultants (
    id              integer PRIMARY KEY,
    firm_id         integer NOT NULL REFERENCES staffing_firms(id),
    first_nm        text NOT NULL,
    last_nm         text NOT NULL,
    email           text,
    desk            text NOT NULL,
    office_city     text NOT NULL,
    grade_cd        varchar(4) NOT NULL,
    hire_dt         date NOT NULL,
    leave_dt        date,
    base_salary_amt numeric(10,2) NOT NULL,
    comm_pct        numeric(5,2) NOT NULL,
    is_active       boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE consultants IS 'Recruitment consultants (recruiters) employed by the agency.';
COMMENT ON COLUMN consultants.desk IS 'Market the consultant recruits for: IT, Finance, Engineering, Healthcare or Office Support.';
COMMENT ON COLUMN consultants.grade_cd IS 'Seniority: RC1 = associate, RC2 = consultant, SRC = senior consultant, MGR = team manager.';
COMMENT ON COLUMN consultants.leave_dt IS 'Date the consultant left the agency; empty while still employed.';
COMMENT ON COLUMN consultants.base_salary_amt IS 'Annual base salary before commission.';
COMMENT ON COLUMN consultants.comm_pct IS 'Commission percentage the consultant earns on fees billed.';

CREATE TABLE clients (
    id               integer PRIMARY KEY,
    firm_id          integer NOT NULL REFERENCES staffing_firms(id),
    client_nm        text NOT NULL,
    industry         text NOT NULL,
    city             text NOT NULL,
    acct_tier        text NOT NULL,
    pay_terms_days   smallint NOT NULL,
    credit_limit_amt numeric(12,2),
    acct_mgr_id      integer,
    is_active        boolean NOT NULL DEFAULT true,
    created_at       timestamp NOT NULL
);
COMMENT ON TABLE clients IS 'Hiring companies the agency recruits for and invoices.';
COMMENT ON COLUMN clients.acct_tier IS 'Account tier: gold (key account), silver or bronze.';
COMMENT ON COLUMN clients.pay_terms_days IS 'Invoice payment terms in days (invoice due this many days after issue).';
COMMENT ON COLUMN clients.credit_limit_amt IS 'Maximum unpaid invoice balance allowed for the client.';
COMMENT ON COLUMN clients.acct_mgr_id IS 'Consultant who owns the client relationship (consultants.id).';
COMMENT ON COLUMN clients.created_at IS 'When the client account was opened on the platform.';

CREATE TABLE candidates (
    id              integer PRIMARY KEY,
    firm_id         integer NOT NULL REFERENCES staffing_firms(id),
    first_nm        text NOT NULL,
    last_nm         text NOT NULL,
    email           text,
    city            text NOT NULL,
    primary_skill   text NOT NULL,
    yrs_exp         smallint NOT NULL,
    exp_salary_amt  numeric(10,2),
    notice_wks      smallint NOT NULL,
    source_cd       varchar(4) NOT NULL,
    cand_status     text NOT NULL,
    rtw_flg         boolean NOT NULL,
    registered_at   timestamp NOT NULL
);
COMMENT ON TABLE candidates IS 'Job seekers registered with the agency.';
COMMENT ON COLUMN candidates.yrs_exp IS 'Years of relevant work experience.';
COMMENT ON COLUMN candidates.exp_salary_amt IS 'Annual salary the candidate is looking for.';
COMMENT ON COLUMN candidates.notice_wks IS 'Notice period at current employer, in weeks (0 = available immediately).';
COMMENT ON COLUMN candidates.source_cd IS 'Where the candidate came from: LI = LinkedIn, JB = job board, REF = referral, WEB = agency website.';
COMMENT ON COLUMN candidates.cand_status IS 'active (looking), placed (currently in a job we placed them in), inactive, or dnc (do not contact).';
COMMENT ON COLUMN candidates.rtw_flg IS 'Right-to-work in the UK has been checked and confirmed.';
COMMENT ON COLUMN candidates.registered_at IS 'When the candidate registered with the agency.';

CREATE TABLE vacancies (
    id             integer PRIMARY KEY,
    firm_id        integer NOT NULL REFERENCES staffing_firms(id),
    vac_ref        varchar(12) NOT NULL,
    client_id      integer NOT NULL REFERENCES clients(id),
    consultant_id  integer NOT NULL REFERENCES consultants(id),
    job_title      text NOT NULL,
    desk           text NOT NULL,
    emp_type       text NOT NULL,
    location       text NOT NULL,
    sal_min        numeric(10,2),
    sal_max        numeric(10,2),
    hrly_rate      numeric(8,2),
    positions_qty  smallint NOT NULL,
    priority_cd    varchar(2) NOT NULL,
    remote_ok      boolean NOT NULL,
    status         text NOT NULL,
    opened_dt      date NOT NULL,
    closed_dt      date
);
COMMENT ON TABLE vacancies IS 'Jobs (roles) a client has asked the agency to fill.';
COMMENT ON COLUMN vacancies.vac_ref IS 'Vacancy reference used on adverts.';
COMMENT ON COLUMN vacancies.consultant_id IS 'Consultant responsible for filling the role.';
COMMENT ON COLUMN vacancies.emp_type IS 'permanent, contract (fixed term, paid hourly) or temp (short-term, paid hourly).';
COMMENT ON COLUMN vacancies.sal_min IS 'Bottom of the advertised annual salary band (permanent roles only).';
COMMENT ON COLUMN vacancies.sal_max IS 'Top of the advertised annual salary band (permanent roles only).';
COMMENT ON COLUMN vacancies.hrly_rate IS 'Maximum hourly pay rate for the worker (contract and temp roles only).';
COMMENT ON COLUMN vacancies.positions_qty IS 'Number of people the client wants to hire for this role.';
COMMENT ON COLUMN vacancies.priority_cd IS 'P1 = urgent, P2 = normal, P3 = low priority.';
COMMENT ON COLUMN vacancies.status IS 'open, on_hold, filled or cancelled.';
COMMENT ON COLUMN vacancies.closed_dt IS 'Date the role was filled or cancelled.';

CREATE TABLE applications (
    id            integer PRIMARY KEY,
    firm_id       integer NOT NULL REFERENCES staffing_firms(id),
    vacancy_id    integer NOT NULL REFERENCES vacancies(id),
    candidate_id  integer NOT NULL REFERENCES candidates(id),
    applied_at    timestamp NOT NULL,
    stage         text NOT NULL,
    reject_rsn    text,
    UNIQUE (vacancy_id, candidate_id)
);
COMMENT ON TABLE applications IS 'A candidate put forward for / applying to a vacancy.';
COMMENT ON COLUMN applications.stage IS 'new, screening, shortlisted, interviewing, offered, hired, rejected or withdrawn (candidate pulled out).';
COMMENT ON COLUMN applications.reject_rsn IS 'Why the application was rejected; only for rejected applications.';

CREATE TABLE interviews (
    id               integer PRIMARY KEY,
    firm_id          integer NOT NULL REFERENCES staffing_firms(id),
    application_id   integer NOT NULL,
    round_no         smallint NOT NULL,
    sched_at         timestamp NOT NULL,
    intv_type        text NOT NULL,
    interviewer_nm   text,
    outcome          text NOT NULL,
    score            smallint
);
COMMENT ON TABLE interviews IS 'Interviews arranged between a candidate and the client for an application.';
COMMENT ON COLUMN interviews.application_id IS 'The application (applications.id) the interview is for.';
COMMENT ON COLUMN interviews.round_no IS '1 = first interview, 2 = second, 3 = final.';
COMMENT ON COLUMN interviews.intv_type IS 'phone, video or onsite.';
COMMENT ON COLUMN interviews.interviewer_nm IS 'Hiring manager at the client who ran the interview.';
COMMENT ON COLUMN interviews.outcome IS 'passed, failed, no_show, cancelled or scheduled (not yet happened).';
COMMENT ON COLUMN interviews.score IS 'Client feedback score 1-5 (5 best); only for passed or failed interviews.';

CREATE TABLE placements (
    id              integer PRIMARY KEY,
    firm_id         integer NOT NULL REFERENCES staffing_firms(id),
    application_id  integer NOT NULL REFERENCES applications(id),
    candidate_id    integer NOT NULL REFERENCES candidates(id),
    vacancy_id      integer NOT NULL REFERENCES vacancies(id),
    consultant_id   integer,
    placement_type  text NOT NULL,
    start_dt        date NOT NULL,
    end_dt          date,
    annual_salary   numeric(10,2),
    fee_pct         numeric(5,2),
    fee_amt         numeric(10,2),
    pay_rate        numeric(8,2),
    bill_rate       numeric(8,2),
    status          text NOT NULL
);
COMMENT ON TABLE placements IS 'A candidate hired into a vacancy through the agency (a permanent hire or a contract/temp assignment).';
COMMENT ON COLUMN placements.consultant_id IS 'Consultant credited with the placement (consultants.id).';
COMMENT ON COLUMN placements.placement_type IS 'permanent, contract or temp.';
COMMENT ON COLUMN placements.end_dt IS 'Last day of the assignment for contract/temp; empty for permanent hires.';
COMMENT ON COLUMN placements.annual_salary IS 'Starting annual salary (permanent only).';
COMMENT ON COLUMN placements.fee_pct IS 'Placement fee as a percentage of first-year salary (permanent only).';
COMMENT ON COLUMN placements.fee_amt IS 'Placement fee charged to the client (permanent only).';
COMMENT ON COLUMN placements.pay_rate IS 'Hourly rate paid to the contractor/temp worker.';
COMMENT ON COLUMN placements.bill_rate IS 'Hourly rate charged to the client for the contractor/temp worker (charge rate).';
COMMENT ON COLUMN placements.status IS 'active, completed (contract ended), terminated (ended early / left in guarantee period) or fell_through (never started).';

CREATE TABLE timesheets (
    id             integer PRIMARY KEY,
    firm_id        integer NOT NULL REFERENCES staffing_firms(id),
    placement_id   integer NOT NULL REFERENCES placements(id),
    week_ending_dt date NOT NULL,
    std_hrs_qty    numeric(5,2) NOT NULL,
    ot_hrs_qty     numeric(5,2) NOT NULL DEFAULT 0,
    status         text NOT NULL,
    approved_by    text,
    approved_at    timestamp
);
COMMENT ON TABLE timesheets IS 'Weekly timesheets submitted by contractors and temps.';
COMMENT ON COLUMN timesheets.week_ending_dt IS 'Sunday the timesheet week ends on.';
COMMENT ON COLUMN timesheets.std_hrs_qty IS 'Standard hours worked in the week.';
COMMENT ON COLUMN timesheets.ot_hrs_qty IS 'Overtime hours, billed at 1.5x the charge rate.';
COMMENT ON COLUMN timesheets.status IS 'draft, submitted (waiting for client approval), approved, rejected or invoiced.';
COMMENT ON COLUMN timesheets.approved_by IS 'Client manager who approved the timesheet.';

CREATE TABLE client_invoices (
    id             integer PRIMARY KEY,
    firm_id        integer NOT NULL REFERENCES staffing_firms(id),
    inv_no         varchar(16) NOT NULL,
    client_id      integer NOT NULL REFERENCES clients(id),
    placement_id   integer,
    inv_type       text NOT NULL,
    inv_dt         date NOT NULL,
    due_dt         date NOT NULL,
    net_amt        numeric(12,2) NOT NULL,
    vat_amt        numeric(12,2) NOT NULL,
    gross_amt      numeric(12,2) NOT NULL,
    status         text NOT NULL,
    paid_dt        date
);
COMMENT ON TABLE client_invoices IS 'Invoices sent to clients: one-off permanent placement fees and monthly contractor/temp billing.';
COMMENT ON COLUMN client_invoices.placement_id IS 'Placement (placements.id) the invoice bills for.';
COMMENT ON COLUMN client_invoices.inv_type IS 'perm_fee (permanent placement fee) or timesheet (monthly contractor hours).';
COMMENT ON COLUMN client_invoices.net_amt IS 'Invoice amount before VAT.';
COMMENT ON COLUMN client_invoices.vat_amt IS 'VAT at 20%.';
COMMENT ON COLUMN client_invoices.gross_amt IS 'Invoice total including VAT.';
COMMENT ON COLUMN client_invoices.status IS 'sent (not yet due), paid, overdue or void (cancelled).';

-- ---------------------------------------------------------------------------
-- Seed data (deterministic)
-- ---------------------------------------------------------------------------

INSERT INTO staffing_firms (id, firm_nm, hq_city, co_reg_no, plan_tier, onboarded_dt) VALUES
 (1, 'Brightpath Recruitment',  'Manchester', '08812345', 'growth',     '2023-01-03'),
 (2, 'Keystone Talent Partners', 'London',    '10234987', 'enterprise', '2023-01-16'),
 (3, 'Pennine Staffing Group',  'Leeds',      '07651203', 'starter',    '2023-02-06');

-- consultants: tenant 1 ids 1-14, tenant 2 ids 15-24, tenant 3 ids 25-32
INSERT INTO consultants (id, firm_id, first_nm, last_nm, email, desk, office_city, grade_cd, hire_dt, leave_dt, base_salary_amt, comm_pct, is_active) VALUES
 (1,  1, 'Rachel',  'Hughes',    'rachel.hughes@brightpath.co.uk',   'IT',             'Manchester', 'MGR', '2023-03-05', NULL,         52000.00, 10.00, true),
 (2,  1, 'Tom',     'Barrett',   'tom.barrett@brightpath.co.uk',     'IT',             'Manchester', 'SRC', '2023-06-15', NULL,         38000.00, 12.50, true),
 (3,  1, 'Aisha',   'Khan',      'aisha.khan@brightpath.co.uk',      'IT',             'Leeds',      'RC2', '2023-09-12', NULL,         30000.00, 10.00, true),
 (4,  1, 'Josh',    'Miller',    'josh.miller@brightpath.co.uk',     'IT',             'Manchester', 'RC1', '2024-01-08', '2025-08-29', 25000.00,  8.00, false),
 (5,  1, 'Priya',   'Shah',      'priya.shah@brightpath.co.uk',      'Finance',        'Manchester', 'SRC', '2023-11-04', NULL,         40000.00, 12.50, true),
 (6,  1, 'Daniel',  'Cooper',    'daniel.cooper@brightpath.co.uk',   'Finance',        'Liverpool',  'RC2', '2023-04-19', NULL,         31000.00, 10.00, true),
 (7,  1, 'Hannah',  'Ward',      'hannah.ward@brightpath.co.uk',     'Finance',        'Manchester', 'RC1', '2023-07-03', NULL,         26000.00,  8.00, true),
 (8,  1, 'Gareth',  'Evans',     'gareth.evans@brightpath.co.uk',    'Engineering',    'Bolton',     'MGR', '2023-02-13', NULL,         50000.00, 10.00, true),
 (9,  1, 'Sophie',  'Turner',    'sophie.turner@brightpath.co.uk',   'Engineering',    'Bolton',     'RC2', '2023-02-28', NULL,         30500.00, 10.00, true),
 (10, 1, 'Liam',    'Doyle',     'liam.doyle@brightpath.co.uk',      'Engineering',    'Manchester', 'SRC', '2023-10-05', '2024-11-30', 37000.00, 12.50, false),
 (11, 1, 'Grace',   'Okafor',    'grace.okafor@brightpath.co.uk',    'Healthcare',     'Liverpool',  'SRC', '2023-05-20', NULL,         39000.00, 12.50, true),
 (12, 1, 'Megan',   'Price',     'megan.price@brightpath.co.uk',     'Healthcare',     'Stockport',  'RC1', '2024-09-02', NULL,         25500.00,  8.00, true),
 (13, 1, 'Chris',   'Bell',      'chris.bell@brightpath.co.uk',      'Office Support', 'Manchester', 'RC2', '2023-08-16', NULL,         29000.00, 10.00, true),
 (14, 1, 'Natalie', 'Fox',       'natalie.fox@brightpath.co.uk',     'Office Support', 'Stockport',  'RC1', '2025-02-10', NULL,         25000.00,  8.00, true),
 (15, 2, 'James',   'Whitmore',  'james.whitmore@keystonetalent.com', 'IT',            'London',     'MGR', '2023-09-01', NULL,         65000.00, 10.00, true),
 (16, 2, 'Rachel',  'Hughes',    'rachel.hughes@keystonetalent.com', 'IT',             'London',     'SRC', '2023-01-14', NULL,         48000.00, 12.50, true),
 (17, 2, 'Oliver',  'Grant',     'oliver.grant@keystonetalent.com',  'IT',             'London',     'RC2', '2023-05-03', NULL,         36000.00, 10.00, true),
 (18, 2, 'Fatima',  'Begum',     'fatima.begum@keystonetalent.com',  'Finance',        'London',     'SRC', '2023-07-23', NULL,         50000.00, 12.50, true),
 (19, 2, 'Ben',     'Carter',    'ben.carter@keystonetalent.com',    'Finance',        'Birmingham', 'RC1', '2023-10-09', NULL,         29000.00,  8.00, true),
 (20, 2, 'Isla',    'Murray',    'isla.murray@keystonetalent.com',   'Engineering',    'Birmingham', 'RC2', '2023-03-15', '2025-03-31', 34000.00, 10.00, false),
 (21, 2, 'Kwame',   'Mensah',    'kwame.mensah@keystonetalent.com',  'Engineering',    'Birmingham', 'SRC', '2023-11-30', NULL,         45000.00, 12.50, true),
 (22, 2, 'Lucy',    'Parker',    'lucy.parker@keystonetalent.com',   'Healthcare',     'London',     'RC2', '2023-08-22', NULL,         35000.00, 10.00, true),
 (23, 2, 'Sam',     'Reid',      'sam.reid@keystonetalent.com',      'Office Support', 'London',     'RC1', '2024-04-02', NULL,         28000.00,  8.00, true),
 (24, 2, 'Ella',    'Watson',    'ella.watson@keystonetalent.com',   'Healthcare',     'London',     'RC1', '2025-01-06', NULL,         28000.00,  8.00, true),
 (25, 3, 'Mark',    'Sutcliffe', 'mark@penninestaffing.co.uk',       'Engineering',    'Leeds',      'MGR', '2023-04-07', NULL,         47000.00, 10.00, true),
 (26, 3, 'Jo',      'Haigh',     'jo@penninestaffing.co.uk',         'Engineering',    'Bradford',   'RC2', '2023-06-01', NULL,         29000.00, 10.00, true),
 (27, 3, 'Tom',     'Barrett',   'tom.b@penninestaffing.co.uk',      'IT',             'Leeds',      'SRC', '2023-09-09', NULL,         37000.00, 12.50, true),
 (28, 3, 'Amir',    'Hussain',   'amir@penninestaffing.co.uk',       'Finance',        'Leeds',      'RC2', '2023-01-17', NULL,         30000.00, 10.00, true),
 (29, 3, 'Claire',  'Lumb',      'claire@penninestaffing.co.uk',     'Healthcare',     'Huddersfield','SRC','2023-10-22', NULL,         38000.00, 12.50, true),
 (30, 3, 'Dean',    'Walsh',     'dean@penninestaffing.co.uk',       'Office Support', 'Leeds',      'RC1', '2023-05-15', '2025-10-31', 24000.00,  8.00, false),
 (31, 3, 'Kirsty',  'Bland',     'kirsty@penninestaffing.co.uk',     'Office Support', 'Bradford',   'RC1', '2024-03-04', NULL,         24500.00,  8.00, true),
 (32, 3, 'Yusuf',   'Patel',     'yusuf@penninestaffing.co.uk',      'IT',             'Leeds',      'RC2', '2023-02-20', NULL,         31000.00, 10.00, true);

-- clients: tenant 1 ids 1-40, tenant 2 ids 41-70, tenant 3 ids 71-90.
-- name index k; tenants overlap in k so several client names exist in more than one agency.
INSERT INTO clients (id, firm_id, client_nm, industry, city, acct_tier, pay_terms_days, credit_limit_amt, acct_mgr_id, is_active, created_at)
SELECT t.off + g, t.bid,
       (ARRAY['Apex','Harbour','Summit','Crescent','Meridian','Northwind','Bluebell','Ironbridge','Riverside','Oakley'])[1 + k % 10]
         || ' ' ||
       (ARRAY['Logistics','Engineering','Health','Software','Finance','Retail','Construction','Energy'])[1 + (k / 10 + k % 10) % 8],
       (ARRAY['Logistics','Manufacturing','Healthcare','Technology','Financial Services','Retail','Construction','Energy'])[1 + (k / 10 + k % 10) % 8],
       CASE WHEN t.bid = 2 THEN (ARRAY['London','London','Birmingham','Reading','London','Croydon','Birmingham','Slough'])[1 + (k * 3) % 8]
            WHEN t.bid = 3 THEN (ARRAY['Leeds','Bradford','Huddersfield','Leeds','Wakefield','Halifax','Leeds','Manchester'])[1 + (k * 3) % 8]
            ELSE (ARRAY['Manchester','Liverpool','Bolton','Manchester','Stockport','Leeds','Manchester','Warrington'])[1 + (k * 3) % 8] END,
       CASE WHEN k % 7 = 0 THEN 'gold' WHEN k % 3 = 0 THEN 'silver' ELSE 'bronze' END,
       (ARRAY[30, 30, 45, 60])[1 + k % 4],
       CASE WHEN k % 9 = 4 THEN NULL ELSE (ARRAY[25000, 50000, 75000, 100000, 150000])[1 + (k * 7) % 5] END,
       t.coff + 1 + (k * 5) % t.ncons,
       (k % 11) <> 5,
       timestamp '2023-01-05 10:00' + ((k * 29 + t.bid * 13) % 700) * interval '1 day' + ((k * 47) % 480) * interval '1 minute'
FROM (VALUES (1, 0, 40, 0, 0, 14), (2, 40, 30, 20, 14, 10), (3, 70, 20, 33, 24, 8)) AS t(bid, off, n, koff, coff, ncons),
     generate_series(1, t.n) AS g,
     LATERAL (SELECT g - 1 + t.koff AS k) AS kk;

-- candidates: tenant 1 ids 1-300, tenant 2 ids 301-500, tenant 3 ids 501-620
INSERT INTO candidates (id, firm_id, first_nm, last_nm, email, city, primary_skill, yrs_exp, exp_salary_amt, notice_wks, source_cd, cand_status, rtw_flg, registered_at)
SELECT t.off + g, t.bid,
       (ARRAY['Oliver','Amelia','George','Isla','Harry','Ava','Jack','Mia','Noah','Grace',
              'Leo','Freya','Arthur','Lily','Oscar','Emily','Mohammed','Poppy','Charlie','Zainab'])[1 + g % 20],
       (ARRAY['Smith','Jones','Taylor','Brown','Williams','Wilson','Davies','Evans','Thomas','Roberts',
              'Walker','Wright','Hughes','Green','Hall','Wood','Clarke','Patel','Khan','Lewis',
              'Harris','Morgan','Cooper','Ward','Nowak'])[1 + (g / 20 + g * 3) % 25],
       CASE WHEN g % 12 = 0 THEN NULL ELSE 'cand' || (t.off + g) || '@mail.example.com' END,
       CASE WHEN t.bid = 2 THEN (ARRAY['London','London','Birmingham','Reading','Croydon','London'])[1 + (g * 5) % 6]
            WHEN t.bid = 3 THEN (ARRAY['Leeds','Bradford','Leeds','Huddersfield','Wakefield','Manchester'])[1 + (g * 5) % 6]
            ELSE (ARRAY['Manchester','Salford','Liverpool','Manchester','Stockport','Bolton','Leeds','Manchester'])[1 + (g * 5) % 8] END,
       (ARRAY['Java','Python','SQL','Accounting','Payroll','AutoCAD','Electrical','Nursing','Care Work','Administration'])[1 + (g * 7) % 10],
       ((g * 7) % 25)::smallint,
       CASE WHEN g % 15 = 0 THEN NULL ELSE 22000 + ((g * 53) % 60) * 1000 END,
       (ARRAY[0, 1, 4, 4, 12, 8])[1 + g % 6]::smallint,
       (ARRAY['LI', 'JB', 'LI', 'REF', 'WEB', 'JB', 'LI'])[1 + (g * 3 + t.bid) % 7],
       CASE WHEN g % 23 = 0 THEN 'dnc' WHEN g % 6 = 0 THEN 'inactive' ELSE 'active' END,
       (g % 17) <> 0,
       timestamp '2023-01-02 08:00' + ((g * 41 + t.bid * 7) % 1200) * interval '1 day' + ((g * 13) % 600) * interval '1 minute'
FROM (VALUES (1, 0, 300), (2, 300, 200), (3, 500, 120)) AS t(bid, off, n),
     generate_series(1, t.n) AS g;

-- vacancies: tenant 1 ids 1-150, tenant 2 ids 151-250, tenant 3 ids 251-310
INSERT INTO vacancies (id, firm_id, vac_ref, client_id, consultant_id, job_title, desk, emp_type, location,
                       sal_min, sal_max, hrly_rate, positions_qty, priority_cd, remote_ok, status, opened_dt, closed_dt)
SELECT v.id, v.bid, v.vac_ref, v.client_id, v.consultant_id,
       (ARRAY['Software Developer','Data Analyst','DevOps Engineer','IT Support Analyst',
              'Management Accountant','Payroll Officer','Credit Controller','Financial Analyst',
              'Mechanical Engineer','Electrical Technician','Quality Inspector','CAD Designer',
              'Staff Nurse','Healthcare Assistant','Care Coordinator','Pharmacy Technician',
              'Receptionist','Office Administrator','PA to Director','Customer Service Advisor'])[v.d * 4 + 1 + v.g % 4],
       v.desk, v.emp_type, v.location,
       CASE WHEN v.emp_type = 'permanent' THEN (ARRAY[45000, 38000, 40000, 30000, 24000])[v.d + 1] + ((v.g * 7) % 10) * 1000 END,
       CASE WHEN v.emp_type = 'permanent' THEN (ARRAY[45000, 38000, 40000, 30000, 24000])[v.d + 1] + ((v.g * 7) % 10) * 1000 + 5000 + (v.g % 3) * 2500 END,
       CASE WHEN v.emp_type <> 'permanent' THEN (ARRAY[38.00, 26.00, 28.50, 19.50, 13.50])[v.d + 1] + (v.g % 6) * 1.25 END,
       CASE WHEN v.g % 10 = 0 THEN 3 WHEN v.g % 4 = 0 THEN 2 ELSE 1 END,
       (ARRAY['P2', 'P1', 'P3', 'P2', 'P2'])[1 + v.g % 5],
       v.desk IN ('IT', 'Finance') AND v.g % 2 = 0,
       v.status, v.opened_dt,
       CASE WHEN v.status IN ('filled', 'cancelled') THEN v.opened_dt + 35 + (v.g * 7) % 50 END
FROM (
  SELECT q.*,
         CASE WHEN q.opened_dt >= date '2026-03-01' THEN CASE WHEN q.g % 5 = 0 THEN 'on_hold' ELSE 'open' END
              WHEN q.opened_dt >= date '2025-09-01' AND q.g % 2 = 1 THEN 'open'
              WHEN q.g % 8 = 0 THEN 'cancelled'
              WHEN q.g % 13 = 0 THEN 'on_hold'
              ELSE 'filled' END AS status
  FROM (
    SELECT t.off + g AS id, t.bid, g,
           t.pfx || '-V' || lpad(g::text, 4, '0') AS vac_ref,
           cl.id AS client_id, c.id AS consultant_id, c.desk, cl.city AS location,
           array_position(ARRAY['IT','Finance','Engineering','Healthcare','Office Support'], c.desk) - 1 AS d,
           CASE WHEN g % 3 = 0 THEN 'contract' WHEN g % 7 = 0 THEN 'temp' ELSE 'permanent' END AS emp_type,
           date '2023-01-09' + (g * 23) % 1200 AS opened_dt
    FROM (VALUES (1, 0, 150, 0, 40, 0, 14, 'BP'), (2, 150, 100, 40, 30, 14, 10, 'KT'), (3, 250, 60, 70, 20, 24, 8, 'PS'))
           AS t(bid, off, n, cloff, ncl, coff, ncons, pfx)
    CROSS JOIN generate_series(1, t.n) AS g
    JOIN clients cl ON cl.id = t.cloff + 1 + (g * 7) % t.ncl
    JOIN consultants c ON c.id = t.coff + 1 + (g * 5) % t.ncons
  ) AS q
) AS v;

-- applications: tenant 1 ids 1-700, tenant 2 ids 701-1150, tenant 3 ids 1151-1400
INSERT INTO applications (id, firm_id, vacancy_id, candidate_id, applied_at, stage, reject_rsn)
SELECT a.id, a.bid, a.vacancy_id, a.candidate_id, a.applied_at, a.stage,
       CASE WHEN a.stage = 'rejected' THEN
            (ARRAY['skills mismatch', 'salary expectations too high', 'client chose another candidate',
                   'failed interview', 'no right to work', 'client chose another candidate'])[1 + (a.g * 5) % 6] END
FROM (
  SELECT x.*,
         CASE WHEN x.vstatus = 'filled' AND x.rn <= x.positions_qty THEN 'hired'
              WHEN x.vstatus = 'filled' THEN CASE WHEN x.g % 4 = 0 THEN 'withdrawn' ELSE 'rejected' END
              WHEN x.vstatus = 'cancelled' THEN CASE WHEN x.g % 3 = 0 THEN 'withdrawn' ELSE 'rejected' END
              WHEN x.vstatus = 'on_hold' AND x.opened_dt < date '2025-09-01' THEN (ARRAY['screening', 'shortlisted', 'rejected', 'withdrawn'])[1 + x.g % 4]
              ELSE (ARRAY['new', 'screening', 'shortlisted', 'interviewing', 'offered', 'rejected'])[1 + x.g % 6] END AS stage
  FROM (
    SELECT y.*, row_number() OVER (PARTITION BY y.vacancy_id ORDER BY y.applied_at, y.g) AS rn
    FROM (
      SELECT t.off + g AS id, t.bid, g, v.id AS vacancy_id, v.status AS vstatus, v.positions_qty, v.opened_dt,
             t.caoff + 1 + (g * 17 + g / t.nc) % t.nc AS candidate_id,
             v.opened_dt + ((g * 3) % 35) * interval '1 day' + interval '9 hours' + ((g * 37) % 500) * interval '1 minute' AS applied_at
      FROM (VALUES (1, 0, 700, 0, 150, 0, 300), (2, 700, 450, 150, 100, 300, 200), (3, 1150, 250, 250, 60, 500, 120))
             AS t(bid, off, n, voff, nv, caoff, nc)
      CROSS JOIN generate_series(1, t.n) AS g
      JOIN vacancies v ON v.id = t.voff + 1 + (g * 11) % t.nv
    ) AS y
  ) AS x
) AS a;

-- interviews: one to three rounds for applications that reached interview
INSERT INTO interviews (id, firm_id, application_id, round_no, sched_at, intv_type, interviewer_nm, outcome, score)
SELECT row_number() OVER (ORDER BY z.app_id, z.r), z.bid, z.app_id, z.r, z.sched_at,
       CASE WHEN z.r = 1 THEN (ARRAY['phone', 'video', 'video'])[1 + z.app_id % 3]
            WHEN z.r = 2 THEN (ARRAY['onsite', 'video'])[1 + z.app_id % 2]
            ELSE 'onsite' END,
       CASE WHEN z.app_id % 10 = 0 THEN NULL ELSE
       (ARRAY['Karen Lowe', 'David Chen', 'Sunita Rao', 'Paul Fletcher', 'Emma Nolan', 'Steve Hart', 'Joanna Kerr', 'Rob Singh'])[1 + (z.vacancy_id * 3 + z.r) % 8] END,
       z.outcome,
       CASE WHEN z.outcome = 'passed' THEN 3 + (z.app_id + z.r) % 3
            WHEN z.outcome = 'failed' THEN 1 + (z.app_id + z.r) % 2 END
FROM (
  SELECT a.id AS app_id, a.firm_id AS bid, a.vacancy_id, r.r,
         date_trunc('day', a.applied_at) + (7 * r.r + a.id % 5) * interval '1 day'
           + (9 + a.id % 7) * interval '1 hour' + (a.id % 2) * interval '30 minutes' AS sched_at,
         CASE WHEN a.stage IN ('hired', 'offered') THEN 'passed'
              WHEN a.stage = 'interviewing' AND r.r = r.n THEN 'scheduled'
              WHEN a.stage = 'interviewing' THEN 'passed'
              WHEN a.stage = 'withdrawn' AND r.r = r.n THEN 'cancelled'
              WHEN a.stage = 'rejected' AND r.r = r.n THEN CASE WHEN a.id % 7 = 0 THEN 'no_show' ELSE 'failed' END
              ELSE 'passed' END AS outcome
  FROM applications a
  CROSS JOIN LATERAL (
    SELECT CASE WHEN a.stage = 'hired' THEN 2 + a.id % 2
                WHEN a.stage = 'offered' THEN 2
                WHEN a.stage = 'interviewing' THEN 1 + a.id % 2
                WHEN a.stage = 'rejected' AND a.id % 2 = 0 THEN 1 + a.id % 3 % 2
                WHEN a.stage = 'withdrawn' AND a.id % 5 = 0 THEN 1
                ELSE 0 END AS n
  ) AS r0
  CROSS JOIN LATERAL (SELECT gs AS r, r0.n AS n FROM generate_series(1, r0.n) AS gs) AS r
) AS z;

-- placements: one per hired application
INSERT INTO placements (id, firm_id, application_id, candidate_id, vacancy_id, consultant_id, placement_type, start_dt, end_dt,
                        annual_salary, fee_pct, fee_amt, pay_rate, bill_rate, status)
SELECT p.id, p.bid, p.app_id, p.candidate_id, p.vacancy_id, p.consultant_id, p.emp_type, p.start_dt,
       CASE WHEN p.emp_type = 'permanent' THEN NULL
            WHEN p.status0 = 'terminated' THEN p.start_dt + 7 * (p.wks / 2) - 3
            ELSE LEAST(p.start_dt + 7 * p.wks - 3, date '2026-06-30') END,
       CASE WHEN p.emp_type = 'permanent' THEN p.sal_min + (p.app_id % 5) * 1000 END,
       CASE WHEN p.emp_type = 'permanent' THEN (ARRAY[15, 18, 20, 20, 22, 25])[1 + p.app_id % 6] END,
       CASE WHEN p.emp_type = 'permanent' THEN round((p.sal_min + (p.app_id % 5) * 1000) * (ARRAY[15, 18, 20, 20, 22, 25])[1 + p.app_id % 6] / 100.0, 2) END,
       CASE WHEN p.emp_type <> 'permanent' THEN p.hrly_rate - (p.app_id % 4) * 1.50 END,
       CASE WHEN p.emp_type <> 'permanent' THEN round((p.hrly_rate - (p.app_id % 4) * 1.50) * (1.25 + (p.app_id % 5) * 0.05), 2) END,
       CASE WHEN p.status0 <> 'auto' THEN p.status0
            WHEN p.emp_type = 'permanent' THEN 'active'
            WHEN p.start_dt + 7 * p.wks - 3 < date '2026-06-30' THEN 'completed'
            ELSE 'active' END
FROM (
  SELECT row_number() OVER (ORDER BY a.id) AS id, a.firm_id AS bid, a.id AS app_id, a.candidate_id, a.vacancy_id,
         CASE WHEN a.id % 9 = 4 THEN COALESCE((SELECT min(c2.id) FROM consultants c2 WHERE c2.firm_id = v.firm_id AND c2.desk = v.desk AND c2.id <> v.consultant_id), v.consultant_id)
              ELSE v.consultant_id END AS consultant_id,
         v.emp_type, v.sal_min, v.hrly_rate,
         LEAST(v.closed_dt + 14 + (a.id * 3) % 21, date '2026-06-29') AS start_dt,
         CASE WHEN v.emp_type = 'temp' THEN 4 + (a.id % 3) * 4 ELSE (ARRAY[13, 26, 52, 17])[1 + a.id % 4] END AS wks,
         CASE WHEN a.id % 13 = 0 THEN 'fell_through'
              WHEN a.id % 11 = 0 THEN 'terminated'
              WHEN v.emp_type <> 'permanent' AND a.id % 9 = 0 THEN 'terminated'
              ELSE 'auto' END AS status0
  FROM applications a
  JOIN vacancies v ON v.id = a.vacancy_id
  WHERE a.stage = 'hired'
) AS p;

-- candidates currently working in one of our active placements are marked placed
UPDATE candidates c SET cand_status = 'placed'
WHERE EXISTS (SELECT 1 FROM placements p WHERE p.candidate_id = c.id AND p.status = 'active');

-- timesheets: one per week worked on contract / temp placements, up to the week ending 2026-06-28
INSERT INTO timesheets (id, firm_id, placement_id, week_ending_dt, std_hrs_qty, ot_hrs_qty, status, approved_by, approved_at)
SELECT row_number() OVER (ORDER BY w.placement_id, w.week_ending_dt), w.bid, w.placement_id, w.week_ending_dt,
       (ARRAY[37.5, 37.5, 40, 35, 37.5, 30, 40, 22.5])[1 + (w.placement_id * 3 + w.wk) % 8],
       CASE WHEN (w.placement_id + w.wk) % 5 = 0 THEN (w.wk % 4 + 1) * 2 ELSE 0 END,
       w.status,
       CASE WHEN w.status IN ('approved', 'invoiced') THEN
            (ARRAY['Karen Lowe', 'David Chen', 'Sunita Rao', 'Paul Fletcher', 'Emma Nolan', 'Steve Hart', 'Joanna Kerr', 'Rob Singh'])[1 + (w.vacancy_id * 3 + 1) % 8] END,
       CASE WHEN w.status IN ('approved', 'invoiced') THEN
            w.week_ending_dt + interval '1 day' + interval '10 hours' + ((w.placement_id + w.wk) * 17 % 300) * interval '1 minute' END
FROM (
  SELECT s.*,
         CASE WHEN s.week_ending_dt <= date '2026-05-31' THEN
                   CASE WHEN (s.placement_id * 7 + s.wk) % 23 = 0 THEN 'rejected' ELSE 'invoiced' END
              WHEN s.week_ending_dt <= date '2026-06-14' THEN 'approved'
              WHEN s.week_ending_dt <= date '2026-06-21' THEN 'submitted'
              ELSE CASE WHEN s.placement_id % 2 = 0 THEN 'draft' ELSE 'submitted' END END AS status
  FROM (
    SELECT p.id AS placement_id, p.firm_id AS bid, p.vacancy_id, wk,
           -- first Sunday on or after the start date, then weekly
           p.start_dt + (7 - extract(isodow FROM p.start_dt)::int) % 7 + 7 * wk AS week_ending_dt
    FROM placements p
    CROSS JOIN generate_series(0, 60) AS wk
    WHERE p.placement_type <> 'permanent' AND p.status <> 'fell_through'
      AND p.start_dt + (7 - extract(isodow FROM p.start_dt)::int) % 7 + 7 * wk <= LEAST(p.end_dt + 6, date '2026-06-28')
  ) AS s
) AS w;

-- client invoices: one perm fee invoice per permanent placement that started,
-- and one monthly invoice per contract/temp placement covering its invoiced timesheets
INSERT INTO client_invoices (id, firm_id, inv_no, client_id, placement_id, inv_type, inv_dt, due_dt, net_amt, vat_amt, gross_amt, status, paid_dt)
SELECT i.id, i.bid,
       (ARRAY['BP', 'KT', 'PS'])[i.bid] || '-INV-' || lpad(i.n::text, 5, '0'),
       i.client_id, i.placement_id, i.inv_type, i.inv_dt, i.inv_dt + i.terms,
       i.net, round(i.net * 0.20, 2), i.net + round(i.net * 0.20, 2),
       i.status,
       CASE WHEN i.status = 'paid' THEN i.inv_dt + (i.terms - 6 + (i.n * 7) % 15)::int END
FROM (
  SELECT u.*,
         CASE WHEN u.n % 29 = 0 THEN 'void'
              WHEN u.inv_dt + u.terms < date '2026-05-01' THEN CASE WHEN u.n % 13 = 0 THEN 'overdue' ELSE 'paid' END
              WHEN u.inv_dt + u.terms < date '2026-06-30' THEN CASE WHEN u.n % 3 = 0 THEN 'overdue' ELSE 'paid' END
              ELSE 'sent' END AS status
  FROM (
    SELECT row_number() OVER (ORDER BY r.bid, r.inv_dt, r.placement_id) AS id,
           row_number() OVER (PARTITION BY r.bid ORDER BY r.inv_dt, r.placement_id) AS n,
           r.*
    FROM (
      SELECT p.firm_id AS bid, v.client_id, p.id AS placement_id, 'perm_fee' AS inv_type,
             p.start_dt + 1 AS inv_dt, p.fee_amt AS net, cl.pay_terms_days AS terms
      FROM placements p
      JOIN vacancies v ON v.id = p.vacancy_id
      JOIN clients cl ON cl.id = v.client_id
      WHERE p.placement_type = 'permanent' AND p.status <> 'fell_through' AND p.start_dt < date '2026-06-29'
      UNION ALL
      SELECT p.firm_id, v.client_id, p.id, 'timesheet',
             (date_trunc('month', ts.week_ending_dt) + interval '1 month')::date + 1,
             round(sum((ts.std_hrs_qty + ts.ot_hrs_qty * 1.5) * p.bill_rate), 2),
             cl.pay_terms_days
      FROM timesheets ts
      JOIN placements p ON p.id = ts.placement_id
      JOIN vacancies v ON v.id = p.vacancy_id
      JOIN clients cl ON cl.id = v.client_id
      WHERE ts.status = 'invoiced'
      GROUP BY p.firm_id, v.client_id, p.id, date_trunc('month', ts.week_ending_dt), cl.pay_terms_days
    ) AS r
  ) AS u
) AS i;

ANALYZE;
