-- Student-information system shared by several colleges (multi-tenant). Every table except
-- institutions carries institution_id; institutions is the tenant registry, keyed on id.
-- Two colleges (institutions 1 and 2) have data of different sizes and shapes. All rows are
-- deterministic (VALUES lists for reference data, generate_series and arithmetic on row numbers
-- for the rest, no random()); terms run from Fall 2023 to Fall 2025, the snapshot being taken
-- during Fall 2025, so Fall 2025 enrolments have no grade yet.
CREATE TABLE institutions (
  id integer PRIMARY KEY,
  name text NOT NULL,
  short_name text NOT NULL,
  city text NOT NULL,
  state char(2) NOT NULL,
  founded_yr integer NOT NULL
);
CREATE TABLE campuses (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  campus_name text NOT NULL,
  city text NOT NULL,
  opened_on date NOT NULL
);
CREATE TABLE departments (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  campus_id integer NOT NULL REFERENCES campuses (id),
  dept_code text NOT NULL,
  dept_name text NOT NULL,
  school text NOT NULL
);
CREATE TABLE programmes (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  dept_id integer NOT NULL REFERENCES departments (id),
  prog_name text NOT NULL,
  award text NOT NULL,
  prog_lvl text NOT NULL,
  dur_yrs integer NOT NULL
);
CREATE TABLE instructors (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  dept_id integer NOT NULL REFERENCES departments (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  rank text NOT NULL,
  hire_dt date NOT NULL,
  ft boolean NOT NULL,
  is_active boolean NOT NULL,
  annual_salary numeric(10, 2) NOT NULL
);
CREATE TABLE students (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  prog_id integer NOT NULL REFERENCES programmes (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  dob date NOT NULL,
  enrl_dt date NOT NULL,
  res_sts char(1) NOT NULL,
  status text NOT NULL,
  gpa numeric(3, 2)
);
CREATE TABLE courses (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  dept_id integer NOT NULL REFERENCES departments (id),
  course_code text NOT NULL,
  title text NOT NULL,
  cr_hrs integer NOT NULL,
  lvl integer NOT NULL
);
CREATE TABLE course_sections (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  course_id integer NOT NULL REFERENCES courses (id),
  term text NOT NULL,
  section_no integer NOT NULL,
  instructor_id integer,
  room_code text NOT NULL,
  cap integer NOT NULL,
  meeting_day text NOT NULL,
  start_time time NOT NULL
);
CREATE TABLE enrolments (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  student_id integer NOT NULL REFERENCES students (id),
  section_id integer NOT NULL REFERENCES course_sections (id),
  enrl_dt date NOT NULL,
  status text NOT NULL,
  grade_ltr text,
  grade_pts numeric(3, 2)
);
CREATE TABLE fee_invoices (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  student_id integer NOT NULL REFERENCES students (id),
  term text NOT NULL,
  issued_on date NOT NULL,
  due_on date NOT NULL,
  total numeric(10, 2) NOT NULL,
  amt_paid numeric(10, 2) NOT NULL,
  paid_on date,
  status text NOT NULL
);
CREATE TABLE scholarships (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  student_id integer NOT NULL,
  schol_name text NOT NULL,
  amount numeric(10, 2) NOT NULL,
  awarded_on date NOT NULL,
  start_dt date NOT NULL,
  end_dt date
);
CREATE TABLE room_bookings (
  id integer PRIMARY KEY,
  institution_id integer NOT NULL REFERENCES institutions (id),
  campus_id integer NOT NULL REFERENCES campuses (id),
  room_code text NOT NULL,
  booked_by integer,
  purpose text NOT NULL,
  start_ts timestamp NOT NULL,
  end_ts timestamp NOT NULL,
  attendees integer NOT NULL,
  status text NOT NULL
);
COMMENT ON COLUMN departments.school IS 'Faculty/school the department reports to, e.g. School of Business';
COMMENT ON COLUMN programmes.prog_lvl IS 'UG = undergraduate degree, PG = postgraduate (masters) degree';
COMMENT ON COLUMN instructors.ft IS 'True for full-time faculty, false for part-time/adjunct';
COMMENT ON COLUMN instructors.rank IS 'Academic rank: Lecturer, Senior Lecturer, Associate Professor or Professor';
COMMENT ON COLUMN students.enrl_dt IS 'Date the student first matriculated at the college';
COMMENT ON COLUMN students.res_sts IS 'Fee residency: D = domestic (in-state), I = international';
COMMENT ON COLUMN students.status IS 'active, graduated, withdrawn (left the college) or suspended';
COMMENT ON COLUMN students.gpa IS 'Cumulative grade point average on a 0-4 scale; NULL until the first term is graded';
COMMENT ON COLUMN courses.cr_hrs IS 'Credit hours the course is worth';
COMMENT ON COLUMN courses.lvl IS 'Course level: 100 = introductory/first year ... 300 = advanced';
COMMENT ON COLUMN course_sections.instructor_id IS 'instructors.id of the person teaching the section';
COMMENT ON COLUMN course_sections.cap IS 'Maximum number of seats in the section';
COMMENT ON COLUMN enrolments.status IS 'enrolled (currently taking it), completed or withdrawn (dropped the class)';
COMMENT ON COLUMN enrolments.grade_pts IS 'Numeric grade points for grade_ltr (A = 4.00 ... F = 0.00); NULL until graded and for withdrawals';
COMMENT ON COLUMN fee_invoices.total IS 'Tuition plus fees billed to the student for the term, in US dollars';
COMMENT ON COLUMN fee_invoices.amt_paid IS 'Amount received so far against the invoice';
COMMENT ON COLUMN fee_invoices.status IS 'paid, partial, unpaid or void';
COMMENT ON COLUMN scholarships.student_id IS 'students.id of the recipient';
COMMENT ON COLUMN scholarships.end_dt IS 'Last day the award applies; NULL for open-ended (renewable) awards';
COMMENT ON COLUMN room_bookings.booked_by IS 'instructors.id of the staff member who booked the room; NULL for student society bookings';

INSERT INTO institutions (id, name, short_name, city, state, founded_yr) VALUES
(1, 'Riverside College', 'RVC', 'Portland', 'OR', 1962),
(2, 'Ashford Institute of Technology', 'AIT', 'Denver', 'CO', 1978);

INSERT INTO campuses (id, institution_id, campus_name, city, opened_on) VALUES
(1, 1, 'Main Campus', 'Portland', DATE '1962-09-01'),
(2, 1, 'Downtown Campus', 'Portland', DATE '1998-01-15'),
(3, 1, 'Westbrook Campus', 'Beaverton', DATE '2011-08-20'),
(4, 2, 'North Campus', 'Denver', DATE '1978-09-01'),
(5, 2, 'Aurora Campus', 'Aurora', DATE '2004-08-25');

INSERT INTO departments (id, institution_id, campus_id, dept_code, dept_name, school) VALUES
(1, 1, 1, 'CS', 'Computer Science', 'School of Science and Engineering'),
(2, 1, 1, 'MATH', 'Mathematics', 'School of Science and Engineering'),
(3, 1, 1, 'PHYS', 'Physics', 'School of Science and Engineering'),
(4, 1, 3, 'ENGL', 'English', 'School of Arts and Humanities'),
(5, 1, 3, 'HIST', 'History', 'School of Arts and Humanities'),
(6, 1, 2, 'BUS', 'Business Administration', 'School of Business'),
(7, 1, 2, 'ACCT', 'Accounting', 'School of Business'),
(8, 1, 3, 'NURS', 'Nursing', 'School of Health Sciences'),
(9, 2, 4, 'CS', 'Computer Science', 'College of Engineering'),
(10, 2, 4, 'MATH', 'Mathematics', 'School of Science'),
(11, 2, 4, 'MECH', 'Mechanical Engineering', 'College of Engineering'),
(12, 2, 5, 'BUS', 'Business', 'School of Business'),
(13, 2, 5, 'PSYC', 'Psychology', 'School of Social Sciences'),
(14, 2, 4, 'BIOL', 'Biology', 'School of Science');

INSERT INTO programmes (id, institution_id, dept_id, prog_name, award, prog_lvl, dur_yrs) VALUES
(1, 1, 1, 'Computer Science', 'BSc', 'UG', 4),
(2, 1, 1, 'Data Science', 'MSc', 'PG', 2),
(3, 1, 2, 'Mathematics', 'BSc', 'UG', 4),
(4, 1, 3, 'Physics', 'BSc', 'UG', 4),
(5, 1, 4, 'English Literature', 'BA', 'UG', 4),
(6, 1, 5, 'History', 'BA', 'UG', 4),
(7, 1, 6, 'Business Administration', 'BBA', 'UG', 4),
(8, 1, 6, 'Business Administration', 'MBA', 'PG', 2),
(9, 1, 7, 'Accounting', 'BSc', 'UG', 4),
(10, 1, 8, 'Nursing', 'BSN', 'UG', 4),
(11, 1, 1, 'Software Engineering', 'BSc', 'UG', 4),
(12, 1, 5, 'Public History', 'MA', 'PG', 1),
(13, 2, 9, 'Computer Science', 'BS', 'UG', 4),
(14, 2, 10, 'Applied Mathematics', 'BS', 'UG', 4),
(15, 2, 11, 'Mechanical Engineering', 'BEng', 'UG', 4),
(16, 2, 11, 'Mechanical Engineering', 'MEng', 'PG', 1),
(17, 2, 12, 'Business', 'BS', 'UG', 4),
(18, 2, 13, 'Psychology', 'BA', 'UG', 4),
(19, 2, 14, 'Biology', 'BS', 'UG', 4),
(20, 2, 9, 'Cybersecurity', 'MS', 'PG', 2);

-- Forty instructors at Riverside (ids 1-40, five per department), twenty-five at Ashford (41-65).
INSERT INTO instructors (id, institution_id, dept_id, first_name, last_name, email, phone, rank, hire_dt, ft, is_active, annual_salary)
SELECT i, k.inst,
  CASE WHEN k.inst = 1 THEN 1 + (i - 1) % 8 ELSE 9 + (i - 41) % 6 END,
  n.fn, n.ln,
  lower(left(n.fn, 1) || n.ln) || i::text || CASE WHEN k.inst = 1 THEN '@riverside.edu' ELSE '@ashford.edu' END,
  CASE WHEN i % 4 = 0 THEN NULL ELSE '(' || CASE WHEN k.inst = 1 THEN '503' ELSE '303' END || ') 555-' || lpad(((i * 7919) % 10000)::text, 4, '0') END,
  r.rnk,
  DATE '2004-08-16' + (i * 547) % 7300,
  i % 6 <> 0,
  i % 9 <> 0,
  CASE WHEN i % 6 = 0 THEN 38000 ELSE 56000 END + r.ri * 14500 + ((i * 733) % 9000) + CASE WHEN k.inst = 2 THEN 4200 ELSE 0 END
FROM generate_series(1, 65) AS i,
LATERAL (SELECT CASE WHEN i <= 40 THEN 1 ELSE 2 END AS inst) AS k,
LATERAL (SELECT (i * 3 + i / 7) % 4 AS ri) AS r0,
LATERAL (SELECT r0.ri, (ARRAY['Lecturer', 'Senior Lecturer', 'Associate Professor', 'Professor'])[1 + r0.ri] AS rnk) AS r,
LATERAL (SELECT
  (ARRAY['Margaret', 'David', 'Elena', 'Robert', 'Susan', 'Wei', 'Anita', 'Michael', 'Julia', 'Carlos', 'Fiona', 'Samuel', 'Karen', 'Hiroshi', 'Ruth', 'Alan', 'Deepa', 'Thomas', 'Grace'])[1 + (i * 11) % 19] AS fn,
  (ARRAY['Okafor', 'Reynolds', 'Nakamura', 'Fischer', 'Alvarez', 'Brennan', 'Chen', 'Kowalski', 'Harper', 'Lindqvist', 'Moreau', 'Patel', 'Sullivan', 'Greene', 'Haddad', 'Novak', 'Ortega', 'Whitfield', 'Yamada', 'Becker', 'Duarte', 'Ellison', 'Foster'])[1 + (i * 13) % 23] AS ln) AS n;

-- Six hundred students at Riverside (ids 1-600), four hundred at Ashford (601-1000).
INSERT INTO students (id, institution_id, prog_id, first_name, last_name, email, phone, dob, enrl_dt, res_sts, status, gpa)
SELECT i, k.inst,
  CASE WHEN k.inst = 1 THEN (ARRAY[1, 1, 1, 3, 4, 5, 6, 7, 7, 7, 8, 9, 10, 10, 10, 11, 11, 2, 12, 9, 1, 10, 7, 5, 9, 1, 11])[1 + (k.j * 7 + k.j / 11) % 27]
       ELSE (ARRAY[13, 13, 13, 14, 15, 15, 16, 17, 17, 18, 19, 20, 18, 13, 15])[1 + (k.j * 5 + k.j / 7) % 15] END,
  n.fn, n.ln,
  lower(n.fn) || '.' || lower(n.ln) || i::text || CASE WHEN k.inst = 1 THEN '@students.riverside.edu' ELSE '@students.ashford.edu' END,
  CASE WHEN i % 5 = 0 THEN NULL ELSE '(' || CASE WHEN k.inst = 1 THEN '971' ELSE '720' END || ') 555-' || lpad(((i * 104729) % 10000)::text, 4, '0') END,
  DATE '1994-06-01' + (i * 211) % 4200,
  m.enrl_dt,
  CASE WHEN (k.j * 3) % 7 = 0 THEN 'I' ELSE 'D' END,
  CASE WHEN m.enrl_dt >= DATE '2025-08-01' THEN 'active'
       WHEN k.j % 13 = 0 THEN 'withdrawn'
       WHEN k.j % 17 = 0 THEN 'suspended'
       WHEN m.enrl_dt < DATE '2022-01-01' AND k.j % 4 <> 1 THEN 'graduated'
       ELSE 'active' END,
  CASE WHEN m.enrl_dt >= DATE '2025-08-01' THEN NULL ELSE round(1.60 + ((i * 37) % 241) / 100.0, 2) END
FROM generate_series(1, 1000) AS i,
LATERAL (SELECT CASE WHEN i <= 600 THEN 1 ELSE 2 END AS inst, CASE WHEN i <= 600 THEN i ELSE i - 600 END AS j) AS k,
LATERAL (SELECT (ARRAY[DATE '2021-08-30', DATE '2022-08-29', DATE '2023-01-09', DATE '2023-08-28', DATE '2024-01-08',
                       DATE '2024-08-26', DATE '2025-01-13', DATE '2025-08-25', DATE '2023-08-28', DATE '2024-08-26'])[1 + (k.j * 3) % 10]
                - (k.j % 6) AS enrl_dt) AS m,
LATERAL (SELECT
  (ARRAY['Emily', 'Jacob', 'Aisha', 'Liam', 'Mia', 'Ethan', 'Zara', 'Noah', 'Chloe', 'Mateo', 'Isla', 'Lucas', 'Amelia', 'Kai', 'Sofia', 'Owen', 'Layla', 'Max', 'Ruby', 'Diego', 'Hannah', 'Arjun', 'Nora'])[1 + (i * 7) % 23] AS fn,
  (ARRAY['Smith', 'Johnson', 'Garcia', 'Brown', 'Nguyen', 'Davis', 'Wilson', 'Martinez', 'Lee', 'Walker', 'Robinson', 'Kim', 'Lopez', 'Clark', 'Hussain', 'Murphy', 'Kelly', 'Scott', 'Rivera', 'Nowak', 'Adams', 'Singh', 'Cohen', 'Baker', 'Hall', 'Young', 'Price', 'Ward', 'Flores'])[1 + (i * 11) % 29] AS ln) AS n;

INSERT INTO courses (id, institution_id, dept_id, course_code, title, cr_hrs, lvl)
SELECT v.id, v.inst, v.dept, v.code, v.title, v.cr, (substring(v.code FROM '[0-9]+')::int / 100) * 100
FROM (VALUES
(1, 1, 1, 'CS101', 'Introduction to Programming', 4),
(2, 1, 1, 'CS102', 'Data Structures', 4),
(3, 1, 1, 'CS201', 'Algorithms', 3),
(4, 1, 1, 'CS220', 'Databases', 3),
(5, 1, 1, 'CS310', 'Operating Systems', 3),
(6, 1, 1, 'CS350', 'Machine Learning', 3),
(7, 1, 2, 'MATH101', 'Calculus I', 4),
(8, 1, 2, 'MATH102', 'Calculus II', 4),
(9, 1, 2, 'MATH201', 'Linear Algebra', 3),
(10, 1, 2, 'MATH210', 'Discrete Mathematics', 3),
(11, 1, 2, 'MATH301', 'Real Analysis', 3),
(12, 1, 2, 'MATH320', 'Probability and Statistics', 3),
(13, 1, 3, 'PHYS101', 'General Physics I', 4),
(14, 1, 3, 'PHYS102', 'General Physics II', 4),
(15, 1, 3, 'PHYS201', 'Classical Mechanics', 3),
(16, 1, 3, 'PHYS210', 'Electromagnetism', 3),
(17, 1, 3, 'PHYS301', 'Quantum Mechanics', 3),
(18, 1, 3, 'PHYS330', 'Astrophysics', 3),
(19, 1, 4, 'ENGL101', 'Academic Writing', 3),
(20, 1, 4, 'ENGL110', 'Introduction to Literature', 3),
(21, 1, 4, 'ENGL205', 'Shakespeare', 3),
(22, 1, 4, 'ENGL220', 'Creative Writing', 3),
(23, 1, 4, 'ENGL310', 'Modern American Fiction', 3),
(24, 1, 4, 'ENGL340', 'Literary Theory', 3),
(25, 1, 5, 'HIST101', 'World History to 1500', 3),
(26, 1, 5, 'HIST102', 'World History since 1500', 3),
(27, 1, 5, 'HIST210', 'American History', 3),
(28, 1, 5, 'HIST230', 'History of Europe', 3),
(29, 1, 5, 'HIST305', 'The Cold War', 3),
(30, 1, 5, 'HIST340', 'Historical Methods', 3),
(31, 1, 6, 'BUS101', 'Introduction to Business', 3),
(32, 1, 6, 'BUS150', 'Business Communication', 3),
(33, 1, 6, 'BUS210', 'Principles of Marketing', 3),
(34, 1, 6, 'BUS220', 'Organizational Behavior', 3),
(35, 1, 6, 'BUS310', 'Strategic Management', 3),
(36, 1, 6, 'BUS330', 'Entrepreneurship', 3),
(37, 1, 7, 'ACCT101', 'Financial Accounting', 3),
(38, 1, 7, 'ACCT102', 'Managerial Accounting', 3),
(39, 1, 7, 'ACCT210', 'Intermediate Accounting', 3),
(40, 1, 7, 'ACCT250', 'Taxation', 3),
(41, 1, 7, 'ACCT310', 'Auditing', 3),
(42, 1, 7, 'ACCT330', 'Forensic Accounting', 3),
(43, 1, 8, 'NURS101', 'Foundations of Nursing', 4),
(44, 1, 8, 'NURS110', 'Anatomy and Physiology', 4),
(45, 1, 8, 'NURS210', 'Pharmacology', 3),
(46, 1, 8, 'NURS220', 'Health Assessment', 3),
(47, 1, 8, 'NURS310', 'Community Health Nursing', 3),
(48, 1, 8, 'NURS350', 'Clinical Practicum', 6),
(49, 2, 9, 'CS101', 'Programming Fundamentals', 4),
(50, 2, 9, 'CS150', 'Web Development', 3),
(51, 2, 9, 'CS240', 'Computer Networks', 3),
(52, 2, 9, 'CS310', 'Software Engineering', 3),
(53, 2, 9, 'CS360', 'Cybersecurity', 3),
(54, 2, 10, 'MATH110', 'College Algebra', 3),
(55, 2, 10, 'MATH120', 'Calculus I', 4),
(56, 2, 10, 'MATH220', 'Differential Equations', 3),
(57, 2, 10, 'MATH250', 'Numerical Methods', 3),
(58, 2, 10, 'MATH330', 'Statistics for Engineers', 3),
(59, 2, 11, 'MECH101', 'Engineering Graphics', 3),
(60, 2, 11, 'MECH201', 'Statics', 3),
(61, 2, 11, 'MECH210', 'Thermodynamics', 4),
(62, 2, 11, 'MECH310', 'Fluid Mechanics', 4),
(63, 2, 11, 'MECH350', 'Machine Design', 3),
(64, 2, 12, 'BUS100', 'Business Foundations', 3),
(65, 2, 12, 'BUS210', 'Marketing', 3),
(66, 2, 12, 'BUS230', 'Business Law', 3),
(67, 2, 12, 'BUS300', 'Finance', 3),
(68, 2, 12, 'BUS340', 'Operations Management', 3),
(69, 2, 13, 'PSYC101', 'Introduction to Psychology', 3),
(70, 2, 13, 'PSYC210', 'Developmental Psychology', 3),
(71, 2, 13, 'PSYC220', 'Social Psychology', 3),
(72, 2, 13, 'PSYC300', 'Research Methods', 3),
(73, 2, 13, 'PSYC330', 'Cognitive Psychology', 3),
(74, 2, 14, 'BIOL101', 'General Biology', 4),
(75, 2, 14, 'BIOL150', 'Cell Biology', 4),
(76, 2, 14, 'BIOL220', 'Genetics', 3),
(77, 2, 14, 'BIOL250', 'Microbiology', 4),
(78, 2, 14, 'BIOL320', 'Ecology', 3)
) AS v (id, inst, dept, code, title, cr);

-- Sections: fall and spring run most courses (introductory ones twice), summer only a few.
INSERT INTO course_sections (id, institution_id, course_id, term, section_no, instructor_id, room_code, cap, meeting_day, start_time)
SELECT row_number() OVER (ORDER BY o.institution_id, o.t, o.course_id, o.sec)::int, o.institution_id, o.course_id, o.term, o.sec,
  (SELECT ins.id FROM instructors ins WHERE ins.dept_id = o.dept_id
   ORDER BY ins.id OFFSET (o.course_id * 3 + o.t * o.sec + o.course_id / 4) % (SELECT count(*) FROM instructors x WHERE x.dept_id = o.dept_id) LIMIT 1),
  (ARRAY['A', 'B', 'C', 'L', 'S'])[1 + (o.course_id + o.sec) % 5] || '-' || (100 + (o.course_id * 7 + o.t * 3) % 40)::text,
  CASE o.lvl WHEN 100 THEN 45 WHEN 200 THEN 32 ELSE 22 END + 5 * ((o.course_id + o.t) % 3) - CASE WHEN o.institution_id = 2 THEN 6 ELSE 0 END,
  (ARRAY['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])[1 + (o.course_id * 3 + o.t * 2 + o.sec) % 5],
  (ARRAY[TIME '08:00', TIME '09:30', TIME '11:00', TIME '13:00', TIME '14:30', TIME '16:00', TIME '18:30'])[1 + (o.course_id * 5 + o.t + o.sec * 2) % 7]
FROM (
  SELECT c.institution_id, c.id AS course_id, c.dept_id, c.lvl, tm.t, tm.term, s.sec
  FROM courses c
  CROSS JOIN (VALUES (1, 'Fall 2023'), (2, 'Spring 2024'), (3, 'Summer 2024'), (4, 'Fall 2024'),
                     (5, 'Spring 2025'), (6, 'Summer 2025'), (7, 'Fall 2025')) AS tm (t, term)
  CROSS JOIN LATERAL generate_series(1, CASE WHEN c.lvl = 100 AND tm.term NOT LIKE 'Summer%' THEN 2 ELSE 1 END) AS s (sec)
  WHERE (tm.term LIKE 'Summer%' AND c.id % 3 = 0)
     OR (tm.term NOT LIKE 'Summer%' AND (c.id + tm.t) % 5 <> 0)
) AS o;

-- Enrolments: each section is filled to between a quarter of and a little over its cap.
INSERT INTO enrolments (id, institution_id, student_id, section_id, enrl_dt, status, grade_ltr, grade_pts)
SELECT row_number() OVER (ORDER BY e.institution_id, e.section_id, e.seat)::int, e.institution_id, e.student_id, e.section_id,
  e.term_start - ((e.section_id + e.seat * 7) % 45),
  e.st,
  CASE WHEN e.st = 'completed' AND (e.section_id + e.seat) % 53 <> 0 THEN g.ltr END,
  CASE WHEN e.st = 'completed' AND (e.section_id + e.seat) % 53 <> 0 THEN g.pts END
FROM (
  SELECT s.institution_id, s.id AS section_id, seat.seat,
    CASE WHEN s.institution_id = 1 THEN 1 + (s.id * 31 + seat.seat * 17) % 600
         ELSE 601 + (s.id * 31 + seat.seat * 17) % 400 END AS student_id,
    ts.term_start,
    CASE WHEN s.term = 'Fall 2025' THEN CASE WHEN (s.id + seat.seat) % 19 = 0 THEN 'withdrawn' ELSE 'enrolled' END
         WHEN (s.id * 3 + seat.seat) % 12 = 0 THEN 'withdrawn'
         ELSE 'completed' END AS st
  FROM course_sections s
  JOIN (VALUES ('Fall 2023', DATE '2023-08-28'), ('Spring 2024', DATE '2024-01-08'), ('Summer 2024', DATE '2024-05-20'),
               ('Fall 2024', DATE '2024-08-26'), ('Spring 2025', DATE '2025-01-13'), ('Summer 2025', DATE '2025-05-19'),
               ('Fall 2025', DATE '2025-08-25')) AS ts (term, term_start) ON ts.term = s.term
  CROSS JOIN LATERAL generate_series(1, (s.cap * (25 + (s.id * 37) % 82)) / 100) AS seat (seat)
) AS e,
LATERAL (SELECT
  (ARRAY['A', 'A', 'A-', 'A-', 'B+', 'B+', 'B+', 'B', 'B', 'B', 'B-', 'B-', 'C+', 'C+', 'C', 'C', 'D', 'F', 'A', 'B'])[1 + (e.section_id * 7 + e.seat * 11) % 20] AS ltr) AS g0,
LATERAL (SELECT g0.ltr, CASE g0.ltr WHEN 'A' THEN 4.00 WHEN 'A-' THEN 3.70 WHEN 'B+' THEN 3.30 WHEN 'B' THEN 3.00 WHEN 'B-' THEN 2.70
                        WHEN 'C+' THEN 2.30 WHEN 'C' THEN 2.00 WHEN 'D' THEN 1.00 ELSE 0.00 END AS pts) AS g;

-- One invoice per student per term in which they took at least one class: credit hours times the
-- per-credit rate (higher for international students) plus a flat fee.
INSERT INTO fee_invoices (id, institution_id, student_id, term, issued_on, due_on, total, amt_paid, paid_on, status)
SELECT row_number() OVER (ORDER BY b.institution_id, b.t, b.student_id)::int, b.institution_id, b.student_id, b.term,
  b.term_start - 30 + (b.student_id % 10),
  b.term_start + (b.student_id % 10),
  b.total,
  CASE b.st WHEN 'paid' THEN b.total WHEN 'partial' THEN round(b.total * (0.30 + (b.student_id % 5) / 10.0), 2) ELSE 0 END,
  CASE WHEN b.st IN ('paid', 'partial') THEN b.term_start + (b.student_id % 10) - 12 + (b.student_id * 3 + b.t) % 30 END,
  b.st
FROM (
  SELECT a.*,
    CASE WHEN a.term = 'Fall 2025' THEN (ARRAY['paid', 'paid', 'partial', 'unpaid'])[1 + a.student_id % 4]
         WHEN (a.student_id + a.t) % 41 = 0 THEN 'void'
         WHEN a.student_id % 23 = 0 THEN 'unpaid'
         WHEN a.student_id % 7 = 0 THEN 'partial'
         ELSE 'paid' END AS st
  FROM (
    SELECT e.institution_id, e.student_id, s.term, ts.t, ts.term_start,
      (sum(c.cr_hrs) * CASE WHEN e.institution_id = 1 THEN CASE WHEN st.res_sts = 'I' THEN 1150 ELSE 410 END
                            ELSE CASE WHEN st.res_sts = 'I' THEN 990 ELSE 385 END END
       + CASE WHEN e.institution_id = 1 THEN 350 ELSE 275 END)::numeric(10, 2) AS total
    FROM enrolments e
    JOIN course_sections s ON s.id = e.section_id
    JOIN courses c ON c.id = s.course_id
    JOIN students st ON st.id = e.student_id
    JOIN (VALUES (1, 'Fall 2023', DATE '2023-08-28'), (2, 'Spring 2024', DATE '2024-01-08'), (3, 'Summer 2024', DATE '2024-05-20'),
                 (4, 'Fall 2024', DATE '2024-08-26'), (5, 'Spring 2025', DATE '2025-01-13'), (6, 'Summer 2025', DATE '2025-05-19'),
                 (7, 'Fall 2025', DATE '2025-08-25')) AS ts (t, term, term_start) ON ts.term = s.term
    GROUP BY e.institution_id, e.student_id, s.term, ts.t, ts.term_start, st.res_sts
  ) AS a
) AS b;

-- Scholarships: ninety at Riverside, sixty at Ashford.
INSERT INTO scholarships (id, institution_id, student_id, schol_name, amount, awarded_on, start_dt, end_dt)
SELECT i, k.inst,
  CASE WHEN k.inst = 1 THEN 1 + (k.j * 53) % 600 ELSE 601 + (k.j * 29) % 400 END,
  sn.nm,
  (ARRAY[5000.00, 2500.00, 3000.00, 1500.00, 4000.00, 1000.00, 750.00])[sn.x] + CASE WHEN k.inst = 2 THEN 250 ELSE 0 END + (k.j % 3) * 250,
  a.awarded_on,
  a.start_dt,
  CASE WHEN k.j % 5 = 0 THEN NULL ELSE (a.start_dt + (ARRAY[12, 12, 24, 6])[1 + k.j % 4] * INTERVAL '1 month' - INTERVAL '1 day')::date END
FROM generate_series(1, 150) AS i,
LATERAL (SELECT CASE WHEN i <= 90 THEN 1 ELSE 2 END AS inst, CASE WHEN i <= 90 THEN i ELSE i - 90 END AS j) AS k,
LATERAL (SELECT 1 + (k.j * 5 + k.inst) % 7 AS x) AS sx,
LATERAL (SELECT sx.x, (ARRAY['Presidential Scholarship', 'Dean''s Merit Award', 'STEM Excellence Grant', 'First Generation Scholarship',
                             'Athletic Scholarship', 'Community Leadership Award', 'Alumni Bursary'])[sx.x] AS nm) AS sn,
LATERAL (SELECT DATE '2023-03-01' + (k.j * 97) % 960 AS awarded_on) AS a0,
LATERAL (SELECT a0.awarded_on,
  CASE WHEN extract(month FROM a0.awarded_on) BETWEEN 2 AND 7 THEN make_date(extract(year FROM a0.awarded_on)::int, 8, 25)
       WHEN extract(month FROM a0.awarded_on) >= 8 THEN make_date(extract(year FROM a0.awarded_on)::int + 1, 1, 10)
       ELSE make_date(extract(year FROM a0.awarded_on)::int, 1, 10) END AS start_dt) AS a;

-- Room bookings: five hundred at Riverside, three hundred at Ashford, 2023 to late 2025; nothing
-- on Sundays, and on Saturdays only exams.
INSERT INTO room_bookings (id, institution_id, campus_id, room_code, booked_by, purpose, start_ts, end_ts, attendees, status)
SELECT i, k.inst,
  CASE WHEN k.inst = 1 THEN (ARRAY[1, 1, 2, 3, 1, 3])[1 + k.j % 6] ELSE (ARRAY[4, 4, 5])[1 + k.j % 3] END,
  (ARRAY['A', 'B', 'C', 'L', 'S'])[1 + (k.j * 3) % 5] || '-' || (100 + (k.j * 11) % 40)::text,
  CASE WHEN p.purpose = 'club meeting' THEN NULL
       WHEN k.inst = 1 THEN 1 + (k.j * 7) % 40 ELSE 41 + (k.j * 7) % 25 END,
  p.purpose,
  t.st,
  t.st + (ARRAY[60, 90, 120, 180, 60, 45])[1 + (k.j * 5) % 6] * INTERVAL '1 minute',
  CASE p.purpose WHEN 'exam' THEN 40 + k.j % 50 WHEN 'lecture' THEN 25 + k.j % 60 WHEN 'office hours' THEN 1 + k.j % 6
                 WHEN 'club meeting' THEN 8 + k.j % 25 ELSE 10 + k.j % 20 END,
  CASE WHEN k.j % 14 = 0 THEN 'cancelled' ELSE 'confirmed' END
FROM generate_series(1, 800) AS i,
LATERAL (SELECT CASE WHEN i <= 500 THEN 1 ELSE 2 END AS inst, CASE WHEN i <= 500 THEN i ELSE i - 500 END AS j) AS k,
LATERAL (SELECT (ARRAY['lecture', 'exam', 'office hours', 'club meeting', 'seminar', 'workshop', 'lecture', 'seminar', 'exam'])[1 + (k.j * 4 + k.inst) % 9] AS purpose) AS p,
LATERAL (SELECT DATE '2023-01-09' + (k.j * 37 + k.inst * 5) % 1050 AS d0) AS d0,
LATERAL (SELECT d0.d0 + CASE extract(isodow FROM d0.d0)::int WHEN 7 THEN 1 WHEN 6 THEN CASE WHEN p.purpose = 'exam' THEN 0 ELSE -1 - k.j % 3 END ELSE 0 END AS d) AS d,
LATERAL (SELECT d.d + (ARRAY[8, 9, 10, 11, 13, 14, 15, 17, 19])[1 + (k.j * 7) % 9] * INTERVAL '1 hour'
                + ((k.j % 2) * 30) * INTERVAL '1 minute' AS st) AS t;
