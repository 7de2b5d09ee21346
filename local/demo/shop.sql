-- The demo database of the local stack: a small multi-tenant shop. Every tenant table has an
-- org_id column; `tabletalk` answers questions about it filtered by X-Tenant-Id.
CREATE TABLE organizations (id integer PRIMARY KEY, name text NOT NULL);
CREATE TABLE customers (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations(id),
  name text NOT NULL,
  email text NOT NULL,
  country text NOT NULL,
  created_at date NOT NULL
);
CREATE TABLE products (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations(id),
  name text NOT NULL,
  category text NOT NULL,
  price numeric(10, 2) NOT NULL
);
CREATE TABLE orders (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations(id),
  customer_id integer NOT NULL REFERENCES customers(id),
  product_id integer NOT NULL REFERENCES products(id),
  quantity integer NOT NULL,
  status text NOT NULL,
  ordered_at date NOT NULL
);
INSERT INTO organizations VALUES (1, 'Northwind Outfitters'), (2, 'Blue Harbor Books');
INSERT INTO customers VALUES
  (1, 1, 'Ada Moreno', 'ada@example.com', 'Spain', '2024-02-11'),
  (2, 1, 'Liam Walsh', 'liam@example.com', 'Ireland', '2024-06-03'),
  (3, 1, 'Mei Tanaka', 'mei@example.com', 'Japan', '2025-01-20'),
  (4, 2, 'Noah Becker', 'noah@example.com', 'Germany', '2024-03-15'),
  (5, 2, 'Olivia Brown', 'olivia@example.com', 'United States', '2025-04-28');
INSERT INTO products VALUES
  (1, 1, 'Trail Backpack', 'bags', 89.00),
  (2, 1, 'Rain Jacket', 'clothing', 129.50),
  (3, 1, 'Camp Stove', 'gear', 54.99),
  (4, 2, 'The Long Tide', 'fiction', 18.00),
  (5, 2, 'Harbor Atlas', 'reference', 42.00);
INSERT INTO orders VALUES
  (1, 1, 1, 1, 1, 'delivered', '2025-02-01'),
  (2, 1, 2, 2, 2, 'shipped', '2025-05-19'),
  (3, 1, 3, 3, 1, 'cancelled', '2025-09-07'),
  (4, 1, 1, 2, 1, 'delivered', '2026-01-14'),
  (5, 2, 4, 4, 3, 'delivered', '2025-03-02'),
  (6, 2, 5, 5, 1, 'pending', '2026-02-22');
