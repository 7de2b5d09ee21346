// The checks of answer-flow-suite.ts on real database servers (each runs when its URL is set, as
// in CI): PostgreSQL with the demo shop (local/demo/shop.sql) loaded into a database of its own,
// and MySQL/MariaDB with a small shop of the same shape (organizations, customers, orders), so
// both guards (guardPostgres, guardMysql) and both drivers answer end to end. Each run creates
// its own database (answer_flow_<random>) and drops it afterwards.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { clearAnswerCatalogs } from '#lib/answer/catalog.ts';
import type { Principal } from '#lib/auth/principal.ts';
import type { DatabaseRecord } from '#lib/store/databases.ts';
import { createOrganization } from '#lib/store/organizations.ts';
import { closeConnectors, demoSeedFile, registerDatabase } from '../helpers/answering.ts';
import { answerFlowSuite } from './answer-flow-suite.ts';

const postgresUrl = process.env.TABLETALK_TEST_POSTGRES_URL;
const mysqlUrl = process.env.TABLETALK_TEST_MYSQL_URL;

const withDatabase = (url: string, name: string): string => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

const organizationPrincipal = async (name: string): Promise<Principal> => {
  const organization = await createOrganization({ name, plan: 'professional' });
  return { credential: 'sk', organizationId: organization.id, plan: 'professional' };
};

describe.runIf(postgresUrl)('the answering flow on PostgreSQL', { timeout: 60_000 }, () => {
  const name = `answer_flow_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let database: DatabaseRecord;
  let principal: Principal;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const loader = new pg.Client({ connectionString: withDatabase(postgresUrl!, name) });
    await loader.connect();
    try {
      await loader.query(readFileSync(demoSeedFile, 'utf8'));
      await loader.query('ANALYZE');
    } finally {
      await loader.end();
    }
    principal = await organizationPrincipal('Answering on PostgreSQL');
    database = await registerDatabase({
      organizationId: principal.organizationId,
      engine: 'postgres',
      url: withDatabase(postgresUrl!, name),
    });
  }, 120_000);

  afterAll(async () => {
    clearAnswerCatalogs();
    await closeConnectors();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });

  answerFlowSuite({
    database: () => database,
    principal: () => principal,
    table: (table) => `public.${table}`,
    param: (n) => `$${n}`,
    systemQuery: 'SELECT usename FROM pg_catalog.pg_user',
  });
});

/** A small shop: two tenants with orders in 2024 and 2025, some cancelled; 150 orders for tenant 2. */
const mysqlShop = (): string[] => {
  const statements = [
    'CREATE TABLE organizations (id INT PRIMARY KEY, name VARCHAR(100) NOT NULL)',
    `CREATE TABLE customers (id INT PRIMARY KEY, org_id INT NOT NULL, name VARCHAR(100) NOT NULL,
       FOREIGN KEY (org_id) REFERENCES organizations (id))`,
    `CREATE TABLE orders (id INT PRIMARY KEY, org_id INT NOT NULL, customer_id INT NOT NULL,
       status VARCHAR(20) NOT NULL, ordered_at DATETIME NOT NULL,
       FOREIGN KEY (org_id) REFERENCES organizations (id), FOREIGN KEY (customer_id) REFERENCES customers (id))`,
    "INSERT INTO organizations VALUES (1, 'Northwind'), (2, 'Blue Harbor')",
  ];
  const customers: string[] = [];
  for (let id = 1; id <= 20; id++) customers.push(`(${id}, ${id <= 12 ? 1 : 2}, 'Customer ${id}')`);
  statements.push(`INSERT INTO customers VALUES ${customers.join(', ')}`);
  const orders: string[] = [];
  const statuses = ['delivered', 'shipped', 'cancelled', 'pending'];
  for (let id = 1; id <= 260; id++) {
    const org = id <= 110 ? 1 : 2;
    const customer = org === 1 ? 1 + (id % 12) : 13 + (id % 8);
    const year = id % 3 === 0 ? 2024 : 2025;
    const month = String(1 + (id % 12)).padStart(2, '0');
    orders.push(
      `(${id}, ${org}, ${customer}, '${statuses[id % (org === 1 ? 4 : 3)]}', '${year}-${month}-15 10:00:00')`,
    );
  }
  statements.push(`INSERT INTO orders VALUES ${orders.join(', ')}`);
  return statements;
};

describe.runIf(mysqlUrl)('the answering flow on MySQL', { timeout: 60_000 }, () => {
  const name = `answer_flow_${randomBytes(4).toString('hex')}`;
  let admin: mysql.Connection;
  let database: DatabaseRecord;
  let principal: Principal;

  beforeAll(async () => {
    const parsed = new URL(mysqlUrl!);
    admin = await mysql.createConnection({
      host: parsed.hostname,
      port: Number(parsed.port || 3306),
      user: decodeURIComponent(parsed.username || 'root'),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    });
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.query(`USE ${name}`);
    for (const statement of mysqlShop()) await admin.query(statement);
    await admin.query('ANALYZE TABLE organizations, customers, orders');
    principal = await organizationPrincipal('Answering on MySQL');
    database = await registerDatabase({
      organizationId: principal.organizationId,
      engine: 'mysql',
      url: withDatabase(mysqlUrl!, name),
      policy: { tenant_column: 'org_id', tables: { organizations: { tenant_column: 'id' } } },
    });
  }, 120_000);

  afterAll(async () => {
    clearAnswerCatalogs();
    await closeConnectors();
    await admin?.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin?.end();
  });

  answerFlowSuite({
    database: () => database,
    principal: () => principal,
    table: (table) => `\`${name}\`.\`${table}\``,
    param: () => '?',
    systemQuery: 'SELECT user FROM mysql.user',
  });
});
