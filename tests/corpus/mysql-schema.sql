-- The MySQL/MariaDB sample database of the SQL guard's tests (lib/dialects/mysql/sql-guard.ts): a small shop
-- shared by several tenants (org_id) and end-user scopes (scope_id). Loaded into a fresh
-- database; names are unqualified so the file loads into any database.
CREATE TABLE organizations (
  id INT PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  plan VARCHAR(20) NOT NULL,
  created_at DATETIME NOT NULL
);

CREATE TABLE countries (
  code CHAR(2) PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  region VARCHAR(40) NOT NULL
);

CREATE TABLE customers (
  id INT PRIMARY KEY,
  org_id INT NOT NULL,
  scope_id VARCHAR(64) NULL,
  name VARCHAR(100) NOT NULL,
  email VARCHAR(200) NOT NULL,
  country_code CHAR(2) NULL,
  vip TINYINT(1) NOT NULL DEFAULT 0,
  created_at DATETIME NOT NULL
);

CREATE TABLE products (
  id INT PRIMARY KEY,
  org_id INT NOT NULL,
  name VARCHAR(100) NOT NULL,
  category VARCHAR(40) NOT NULL,
  price DECIMAL(10, 2) NOT NULL,
  attributes JSON NULL
);

-- scope_id compares by case here (binary collation, still PAD SPACE: 'Alice ' = 'Alice');
-- customers and tickets keep the usual case-insensitive one, under which
-- 'Alice' = 'alice ' = 'alice'.
CREATE TABLE orders (
  id INT PRIMARY KEY,
  org_id INT NOT NULL,
  scope_id VARCHAR(64) COLLATE utf8mb4_bin NULL,
  customer_id INT NOT NULL,
  status VARCHAR(20) NOT NULL,
  total DECIMAL(10, 2) NOT NULL,
  ordered_at DATETIME NOT NULL,
  note TEXT NULL
);

CREATE TABLE order_items (
  id INT PRIMARY KEY,
  org_id INT NOT NULL,
  order_id INT NOT NULL,
  product_id INT NOT NULL,
  quantity INT NOT NULL,
  unit_price DECIMAL(10, 2) NOT NULL
);

-- Tenant column under another name: the row policy lists it with its own tenant_column.
CREATE TABLE invoices (
  id INT PRIMARY KEY,
  organization_id INT NOT NULL,
  order_id INT NOT NULL,
  amount DECIMAL(10, 2) NOT NULL,
  issued_on DATE NOT NULL,
  paid TINYINT(1) NOT NULL DEFAULT 0
);

CREATE TABLE tickets (
  id INT PRIMARY KEY,
  org_id INT NOT NULL,
  scope_id VARCHAR(64) NOT NULL,
  subject VARCHAR(200) NOT NULL,
  priority INT NOT NULL,
  opened_at DATETIME NOT NULL,
  closed_at DATETIME NULL
);

-- No tenant column and not listed: every read is refused.
CREATE TABLE platform_admins (
  id INT PRIMARY KEY,
  email VARCHAR(200) NOT NULL,
  password_hash VARCHAR(200) NOT NULL
);

-- A view listed in the row policy (grouped by the tenant and scope columns, so filtering it
-- equals filtering its base table) and one that is not listed. Grouping by a case-insensitive
-- or PAD SPACE scope column would merge 'Alice' or 'alice ' into 'alice': the guard filters a
-- view, it cannot see into it.
CREATE VIEW order_summary AS
  SELECT org_id, scope_id, status, COUNT(*) AS order_count, SUM(total) AS revenue
  FROM orders GROUP BY org_id, scope_id, status;

CREATE VIEW all_customer_emails AS SELECT org_id, email FROM customers;

-- A user function: always refused, whatever its name.
CREATE FUNCTION tenant_secret() RETURNS VARCHAR(100) DETERMINISTIC RETURN 'secret';
