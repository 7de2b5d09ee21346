-- The development schema of `npm run eval` (eval/dev.jsonl): a public-library network. Two
-- tenants share one schema: every tenant table carries org_id, organizations is filtered on its
-- id, and genres is shared reference data (the row policy is in eval/run.ts). The rows are
-- generated from the row number only, so every run sees the same data.
CREATE TABLE organizations (
  id integer PRIMARY KEY,
  name text NOT NULL,
  city text NOT NULL,
  founded_on date NOT NULL
);
CREATE TABLE genres (
  id integer PRIMARY KEY,
  name text NOT NULL,
  audience text NOT NULL
);
CREATE TABLE branches (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  city text NOT NULL,
  opened_on date NOT NULL
);
CREATE TABLE authors (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  nationality text NOT NULL,
  born_year integer NOT NULL
);
CREATE TABLE books (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  genre_id integer NOT NULL REFERENCES genres (id),
  author_id integer NOT NULL REFERENCES authors (id),
  title text NOT NULL,
  isbn text NOT NULL UNIQUE,
  published_on date NOT NULL,
  pages integer NOT NULL,
  price numeric(8, 2) NOT NULL,
  format text NOT NULL,
  in_print boolean NOT NULL
);
CREATE TABLE members (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  branch_id integer NOT NULL REFERENCES branches (id),
  full_name text NOT NULL,
  email text NOT NULL,
  membership text NOT NULL,
  joined_on date NOT NULL,
  active boolean NOT NULL
);
CREATE TABLE loans (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  book_id integer NOT NULL REFERENCES books (id),
  member_id integer NOT NULL REFERENCES members (id),
  branch_id integer NOT NULL REFERENCES branches (id),
  borrowed_at timestamp NOT NULL,
  due_on date NOT NULL,
  returned_on date,
  status text NOT NULL
);
CREATE TABLE fines (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  loan_id integer NOT NULL REFERENCES loans (id),
  amount numeric(8, 2) NOT NULL,
  issued_on date NOT NULL,
  paid boolean NOT NULL
);

INSERT INTO organizations (id, name, city, founded_on) VALUES
(1, 'Riverside Libraries', 'Portland', '1995-04-01'),
(2, 'Hilltop Library Trust', 'Denver', '2003-09-15');

INSERT INTO genres (id, name, audience) VALUES
(1, 'Fiction', 'adult'),
(2, 'Mystery', 'adult'),
(3, 'Science Fiction', 'adult'),
(4, 'History', 'adult'),
(5, 'Biography', 'adult'),
(6, 'Picture Books', 'children'),
(7, 'Young Adult', 'teen'),
(8, 'Poetry', 'adult');

INSERT INTO branches (id, org_id, name, city, opened_on) VALUES
(1, 1, 'Central Branch', 'Portland', '2001-05-14'),
(2, 1, 'Eastside Branch', 'Portland', '2010-09-01'),
(3, 1, 'Lake Branch', 'Gresham', '2015-03-20'),
(4, 1, 'Harbor Branch', 'Astoria', '2019-06-11'),
(5, 2, 'Main Branch', 'Denver', '1998-02-02'),
(6, 2, 'North Branch', 'Boulder', '2012-08-08'),
(7, 2, 'Mesa Branch', 'Golden', '2020-01-15');

INSERT INTO authors (id, org_id, name, nationality, born_year) VALUES
(1, 1, 'Maya Lindqvist', 'Swedish', 1961),
(2, 1, 'Tomas Okafor', 'Nigerian', 1975),
(3, 1, 'Clara Whitfield', 'British', 1948),
(4, 1, 'Jonah Mercer', 'American', 1982),
(5, 1, 'Aoife Brennan', 'Irish', 1970),
(6, 1, 'Rafael Duarte', 'Brazilian', 1958),
(7, 1, 'Helen Ashby', 'British', 1990),
(8, 1, 'Samuel Price', 'American', 1966),
(9, 1, 'Ines Moreau', 'French', 1979),
(10, 1, 'Kenji Arai', 'Japanese', 1953),
(11, 2, 'Laura Fenwick', 'American', 1972),
(12, 2, 'Pavel Novak', 'Czech', 1964),
(13, 2, 'Grace Holloway', 'British', 1985),
(14, 2, 'Diego Salas', 'Mexican', 1977),
(15, 2, 'Ruth Adler', 'American', 1950),
(16, 2, 'Omar Haddad', 'Canadian', 1969);

-- Books 1–60 belong to tenant 1, 61–90 to tenant 2. Prices, page counts and publication dates
-- are distinct, so rankings have no ties.
INSERT INTO books (id, org_id, genre_id, author_id, title, isbn, published_on, pages, price, format, in_print)
SELECT i,
  CASE WHEN i <= 60 THEN 1 ELSE 2 END,
  (ARRAY[1, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 2, 1, 3, 4])[1 + i % 15],
  CASE WHEN i <= 60 THEN 1 + i % 10 ELSE 11 + i % 6 END,
  (ARRAY['Silent', 'Golden', 'Hidden', 'Last', 'Broken', 'Distant', 'Winter', 'Secret', 'Burning', 'Quiet'])[1 + i % 10]
    || ' ' ||
  (ARRAY['River', 'Garden', 'Empire', 'Harbor', 'Letters', 'Forest', 'Station', 'Voyage', 'Mirror', 'Orchard', 'Season', 'Kingdom'])[1 + (i * 7) % 12],
  '978-0-' || lpad((i * 7919 % 100000)::text, 5, '0') || '-' || lpad(i::text, 3, '0'),
  DATE '1960-01-01' + (i * 397) % 22000,
  100 + (i * 53) % 701,
  round((5 + (i * 37) % 61 + (i % 7) * 0.13)::numeric, 2),
  (ARRAY['hardcover', 'paperback', 'ebook'])[1 + i % 3],
  i % 4 <> 0
FROM generate_series(1, 90) AS i;

-- Members 1–80 belong to tenant 1, 81–120 to tenant 2.
INSERT INTO members (id, org_id, branch_id, full_name, email, membership, joined_on, active)
SELECT i,
  CASE WHEN i <= 80 THEN 1 ELSE 2 END,
  CASE WHEN i <= 80 THEN 1 + i % 4 ELSE 5 + i % 3 END,
  (ARRAY['Alice', 'Ben', 'Chloe', 'David', 'Emma', 'Felix', 'Grace', 'Hugo', 'Iris', 'Jack', 'Kara', 'Liam', 'Mona', 'Noah', 'Olga', 'Paul'])[1 + i % 16]
    || ' ' ||
  (ARRAY['Adams', 'Baker', 'Clark', 'Diaz', 'Evans', 'Foster', 'Gray', 'Hayes', 'Ibarra', 'Jensen'])[1 + i % 10],
  'member' || i || '@example.org',
  (ARRAY['standard', 'standard', 'premium', 'student', 'standard'])[1 + i % 5],
  DATE '2019-01-01' + (i * 61) % 2200,
  i % 6 <> 0
FROM generate_series(1, 120) AS i;

-- Loans 1–400 belong to tenant 1, 401–550 to tenant 2. The first 45 loans go to members 1–9
-- in decreasing numbers, so "the members with the most loans" has no ties at the top.
INSERT INTO loans (id, org_id, book_id, member_id, branch_id, borrowed_at, due_on, returned_on, status)
SELECT i, org, book, member, branch, borrowed, borrowed::date + 21,
  CASE WHEN state = 'returned' THEN borrowed::date + (i % 20) END,
  state
FROM (
  SELECT i,
    CASE WHEN i <= 400 THEN 1 ELSE 2 END AS org,
    CASE WHEN i <= 400 THEN 1 + (i * 7) % 60 ELSE 61 + (i * 7) % 30 END AS book,
    CASE
      WHEN i <= 45 THEN 10 - ceil((sqrt(8 * i + 1) - 1) / 2)::integer
      WHEN i <= 400 THEN 1 + (i * 11) % 80
      ELSE 81 + (i * 11) % 40
    END AS member,
    CASE WHEN i <= 400 THEN 1 + (i * 3) % 4 ELSE 5 + i % 3 END AS branch,
    TIMESTAMP '2023-01-03 10:00:00' + ((i * 137) % 1050) * INTERVAL '1 day' + (i % 9) * INTERVAL '1 hour' AS borrowed,
    CASE
      WHEN i % 13 = 0 THEN 'lost'
      WHEN i % 7 = 0 THEN 'overdue'
      WHEN i % 5 = 0 THEN 'active'
      ELSE 'returned'
    END AS state
  FROM generate_series(1, 550) AS i
) AS l;

-- A fine for every third loan that is not still out on time.
INSERT INTO fines (id, org_id, loan_id, amount, issued_on, paid)
SELECT row_number() OVER (ORDER BY id), org_id, id,
  round((1 + (id * 31) % 400 * 0.05)::numeric, 2),
  due_on + 7,
  id % 4 <> 0
FROM loans
WHERE status <> 'active' AND id % 3 = 0;
