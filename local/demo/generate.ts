// Generates local/demo/shop.sql, the demo database of the local stack: three retail tenants
// (outdoor gear, books, coffee) in one multi-tenant schema with an org_id column on every
// tenant table, two shared reference tables (countries, categories) and a per-tenant view.
// Deterministic (a seeded PRNG): the same file on every run, so the committed .sql only
// changes when this script does. Run: node local/demo/generate.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// ---- deterministic randomness ------------------------------------------------------------------

/** mulberry32: small, fast, good enough for believable data. */
const prng = (seed: number) => {
  let state = seed >>> 0;
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
const random = prng(20240611);
const between = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const weighted = <T>(items: readonly (readonly [T, number])[]): T => {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [item, weight] of items) {
    roll -= weight;
    if (roll < 0) return item;
  }
  return items[items.length - 1]?.[0] as T;
};
const money = (value: number): string => value.toFixed(2);

// ---- dates -------------------------------------------------------------------------------------

const DAY = 86_400_000;
const start = Date.UTC(2023, 0, 1);
const end = Date.UTC(2026, 9, 31); // orders up to the end of October 2026
const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const isoTimestamp = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const dateBetween = (from: number, to: number): number =>
  from + Math.floor(random() * ((to - from) / DAY)) * DAY;

/** A day weighted by growth (later years busier) and season (November and December peaks). */
const orderDay = (from: number): number => {
  for (;;) {
    const day = dateBetween(from, end);
    const progress = (day - start) / (end - start);
    const month = new Date(day).getUTCMonth();
    const season = month === 10 ? 1.5 : month === 11 ? 1.9 : month === 0 || month === 1 ? 0.75 : 1;
    if (random() < ((0.55 + 0.45 * progress) * season) / 1.9) return day;
  }
};

// ---- shared reference data ---------------------------------------------------------------------

const countries = [
  ['US', 'United States', 'North America'],
  ['CA', 'Canada', 'North America'],
  ['MX', 'Mexico', 'North America'],
  ['GB', 'United Kingdom', 'Europe'],
  ['IE', 'Ireland', 'Europe'],
  ['DE', 'Germany', 'Europe'],
  ['FR', 'France', 'Europe'],
  ['NL', 'Netherlands', 'Europe'],
  ['ES', 'Spain', 'Europe'],
  ['PT', 'Portugal', 'Europe'],
  ['IT', 'Italy', 'Europe'],
  ['SE', 'Sweden', 'Europe'],
  ['JP', 'Japan', 'Asia Pacific'],
  ['AU', 'Australia', 'Asia Pacific'],
  ['NZ', 'New Zealand', 'Asia Pacific'],
  ['BR', 'Brazil', 'South America'],
] as const;

const cities: Record<string, string[]> = {
  US: ['Seattle', 'Portland', 'Denver', 'Austin', 'Boston', 'Chicago', 'San Diego'],
  CA: ['Vancouver', 'Calgary', 'Toronto', 'Montreal'],
  MX: ['Mexico City', 'Guadalajara', 'Monterrey'],
  GB: ['London', 'Manchester', 'Bristol', 'Edinburgh', 'Leeds'],
  IE: ['Dublin', 'Cork', 'Galway'],
  DE: ['Berlin', 'Munich', 'Hamburg', 'Cologne'],
  FR: ['Paris', 'Lyon', 'Bordeaux', 'Nantes'],
  NL: ['Amsterdam', 'Utrecht', 'Rotterdam'],
  ES: ['Madrid', 'Barcelona', 'Valencia', 'Seville'],
  PT: ['Lisbon', 'Porto', 'Braga'],
  IT: ['Milan', 'Rome', 'Turin', 'Bologna'],
  SE: ['Stockholm', 'Gothenburg'],
  JP: ['Tokyo', 'Osaka', 'Kyoto'],
  AU: ['Sydney', 'Melbourne', 'Brisbane'],
  NZ: ['Auckland', 'Wellington'],
  BR: ['São Paulo', 'Rio de Janeiro'],
};

interface Category {
  id: number;
  name: string;
  department: string;
  products: { names: string[]; price: [number, number] };
}

const categories: Category[] = [];
const category = (department: string, name: string, names: string[], price: [number, number]): Category => {
  const entry = { id: categories.length + 1, name, department, products: { names, price } };
  categories.push(entry);
  return entry;
};

// ---- tenants -----------------------------------------------------------------------------------

interface Tenant {
  id: number;
  name: string;
  industry: string;
  country: string;
  createdOn: string;
  countries: readonly (readonly [string, number])[];
  categories: Category[];
  stores: { name: string; country: string; city: string; type: string }[];
  roles: readonly (readonly [string, number])[];
  customers: number;
  orders: number;
  itemsPerOrder: [number, number];
  quantity: [number, number];
  channels: readonly (readonly [string, number])[];
}

const outdoor = [
  category(
    'Outdoor',
    'Backpacks',
    [
      'Trail Daypack 22L',
      'Summit Pack 45L',
      'Ridge Hydration Pack',
      'Canyon Travel Pack 60L',
      'Alpine Climbing Pack',
      'Urban Commuter Pack',
    ],
    [39, 229],
  ),
  category(
    'Outdoor',
    'Tents',
    ['Basecamp 2P Tent', 'Ultralight Solo Shelter', 'Family Dome 6P', 'Storm Ridge 3P Tent', 'Bivy Sack'],
    [89, 549],
  ),
  category(
    'Outdoor',
    'Clothing',
    [
      'Rain Jacket',
      'Insulated Vest',
      'Merino Base Layer',
      'Fleece Pullover',
      'Hiking Pants',
      'Down Parka',
      'Sun Hoodie',
      'Wool Beanie',
    ],
    [19, 329],
  ),
  category(
    'Outdoor',
    'Footwear',
    ['Trail Runner', 'Waterproof Hiking Boot', 'Camp Sandal', 'Approach Shoe', 'Winter Boot'],
    [59, 239],
  ),
  category(
    'Outdoor',
    'Camp Kitchen',
    ['Camp Stove', 'Titanium Cook Set', 'Insulated Mug', 'Water Filter', 'Folding Spork', 'Fuel Canister'],
    [6, 149],
  ),
];
const books = [
  category(
    'Books',
    'Fiction',
    [
      'The Long Tide',
      'Salt and Ember',
      'A House of Quiet Rooms',
      "The Cartographer's Daughter",
      'Winter Orchard',
      'Glass Harbour',
      'The Night Ferry',
      'Lanterns at Dusk',
    ],
    [9, 28],
  ),
  category(
    'Books',
    'Non-fiction',
    [
      'The Shape of Rivers',
      'Small Habits, Big Years',
      'A Brief History of Maps',
      'Kitchen Chemistry',
      'The Patient Gardener',
      'Cities of Tomorrow',
    ],
    [12, 35],
  ),
  category(
    'Books',
    'Children',
    [
      'Pip the Lighthouse Cat',
      'Counting Clouds',
      'The Brave Little Boat',
      'Stars for Supper',
      'Moon Over Mudflats',
    ],
    [6, 19],
  ),
  category(
    'Books',
    'Reference',
    [
      'Harbor Atlas',
      'Field Guide to Seabirds',
      'The Pocket Thesaurus',
      'World Almanac 2025',
      'Illustrated Dictionary',
    ],
    [15, 65],
  ),
  category(
    'Books',
    'Comics',
    ['Tidebreakers Vol. 1', 'Tidebreakers Vol. 2', 'Paper Moons', 'The Signal Keepers'],
    [11, 24],
  ),
];
const coffee = [
  category(
    'Coffee',
    'Coffee Beans',
    [
      'Ethiopia Yirgacheffe 250g',
      'Colombia Huila 250g',
      'House Espresso 1kg',
      'Guatemala Antigua 250g',
      'Decaf Swiss Water 250g',
      'Kenya AA 250g',
      'Brazil Cerrado 1kg',
    ],
    [9, 42],
  ),
  category(
    'Coffee',
    'Tea',
    ['Earl Grey Loose Leaf', 'Sencha Green', 'Chamomile Blossom', 'Masala Chai', 'Jasmine Pearls'],
    [7, 24],
  ),
  category(
    'Coffee',
    'Brewing Equipment',
    [
      'Pour-over Dripper',
      'Gooseneck Kettle',
      'Burr Grinder',
      'French Press 1L',
      'Cold Brew Jar',
      'Paper Filters (100)',
      'Espresso Tamper',
    ],
    [5, 249],
  ),
  category(
    'Coffee',
    'Merchandise',
    ['Copper Kettle Mug', 'Canvas Tote', 'Enamel Pin', 'Barista Apron'],
    [6, 32],
  ),
];

const tenants: Tenant[] = [
  {
    id: 1,
    name: 'Northwind Outfitters',
    industry: 'Outdoor retail',
    country: 'US',
    createdOn: '2022-09-14',
    countries: [
      ['US', 55],
      ['CA', 20],
      ['GB', 8],
      ['IE', 5],
      ['DE', 7],
      ['MX', 5],
    ],
    categories: outdoor,
    stores: [
      { name: 'Seattle Flagship', country: 'US', city: 'Seattle', type: 'flagship' },
      { name: 'Denver Basecamp', country: 'US', city: 'Denver', type: 'standard' },
      { name: 'Portland Outlet', country: 'US', city: 'Portland', type: 'outlet' },
      { name: 'Vancouver Store', country: 'CA', city: 'Vancouver', type: 'standard' },
      { name: 'Online Store', country: 'US', city: 'Seattle', type: 'online' },
    ],
    roles: [
      ['sales associate', 6],
      ['cashier', 3],
      ['stock clerk', 2],
      ['gear technician', 2],
    ],
    customers: 240,
    orders: 1050,
    itemsPerOrder: [1, 4],
    quantity: [1, 2],
    channels: [
      ['in_store', 55],
      ['online', 40],
      ['phone', 5],
    ],
  },
  {
    id: 2,
    name: 'Blue Harbor Books',
    industry: 'Bookselling',
    country: 'IE',
    createdOn: '2022-11-02',
    countries: [
      ['IE', 40],
      ['GB', 35],
      ['FR', 8],
      ['NL', 10],
      ['DE', 7],
    ],
    categories: books,
    stores: [
      { name: 'Dublin Quay', country: 'IE', city: 'Dublin', type: 'flagship' },
      { name: 'Galway Corner', country: 'IE', city: 'Galway', type: 'standard' },
      { name: 'Bristol Harbourside', country: 'GB', city: 'Bristol', type: 'standard' },
      { name: 'Online Store', country: 'IE', city: 'Dublin', type: 'online' },
    ],
    roles: [
      ['bookseller', 6],
      ['cashier', 2],
      ['events coordinator', 1],
    ],
    customers: 190,
    orders: 800,
    itemsPerOrder: [1, 5],
    quantity: [1, 3],
    channels: [
      ['in_store', 60],
      ['online', 38],
      ['phone', 2],
    ],
  },
  {
    id: 3,
    name: 'Copper Kettle Coffee',
    industry: 'Coffee roasting',
    country: 'ES',
    createdOn: '2023-02-20',
    countries: [
      ['ES', 35],
      ['PT', 20],
      ['IT', 15],
      ['FR', 10],
      ['JP', 8],
      ['AU', 7],
      ['NZ', 5],
    ],
    categories: coffee,
    stores: [
      { name: 'Madrid Roastery', country: 'ES', city: 'Madrid', type: 'flagship' },
      { name: 'Lisbon Café', country: 'PT', city: 'Lisbon', type: 'standard' },
      { name: 'Barcelona Café', country: 'ES', city: 'Barcelona', type: 'standard' },
      { name: 'Online Store', country: 'ES', city: 'Madrid', type: 'online' },
    ],
    roles: [
      ['barista', 7],
      ['roaster', 2],
      ['cashier', 2],
    ],
    customers: 160,
    orders: 700,
    itemsPerOrder: [1, 3],
    quantity: [1, 4],
    channels: [
      ['in_store', 45],
      ['online', 50],
      ['phone', 5],
    ],
  },
];

const firstNames = [
  'Ada',
  'Liam',
  'Mei',
  'Noah',
  'Olivia',
  'Sofia',
  'Mateo',
  'Aisha',
  'Lucas',
  'Emma',
  'Hiro',
  'Chloe',
  'Diego',
  'Freya',
  'Omar',
  'Nina',
  'Elias',
  'Grace',
  'Ravi',
  'Zoe',
  'Jonas',
  'Lena',
  'Sean',
  'Aoife',
  'Marta',
  'Tomás',
  'Ines',
  'Luca',
  'Giulia',
  'Yuki',
  'Kenji',
  'Priya',
  'Samuel',
  'Hannah',
  'Ben',
  'Clara',
  'Felix',
  'Maya',
  'Oscar',
  'Ruby',
  'Leo',
  'Isla',
  'Daniel',
  'Amara',
  'Niamh',
  'Pablo',
  'Carmen',
  'Jack',
  'Ella',
  'Theo',
];
const lastNames = [
  'Moreno',
  'Walsh',
  'Tanaka',
  'Becker',
  'Brown',
  'García',
  'Silva',
  'Khan',
  'Müller',
  'Dubois',
  'Rossi',
  'Murphy',
  'Kelly',
  'Smith',
  'Jones',
  'Nguyen',
  'Kowalski',
  'Andersson',
  'Fernández',
  'Costa',
  'Bianchi',
  'Sato',
  'Suzuki',
  'Patel',
  "O'Brien",
  'Byrne',
  'Fischer',
  'Martin',
  'Lopez',
  'Wilson',
  'Taylor',
  'Jensen',
  'de Vries',
  'Bakker',
  'Santos',
  'Romano',
  'Ito',
  'Clarke',
  'Hughes',
  'Reyes',
];

// ---- rows --------------------------------------------------------------------------------------

type Value = string | number | boolean | null;
const tables: Record<string, { columns: string[]; rows: Value[][] }> = {};
const insert = (table: string, columns: string[], row: Value[]): void => {
  tables[table] ??= { columns, rows: [] };
  tables[table].rows.push(row);
};

const emailOf = (first: string, last: string, n: number, domain: string): string =>
  `${first}.${last}`
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase() +
  (n > 0 ? String(n) : '') +
  `@${domain}`;

let storeId = 0;
let employeeId = 0;
let customerId = 0;
let productId = 0;
let orderId = 0;
let itemId = 0;
let paymentId = 0;

for (const [code, name, region] of countries)
  insert('countries', ['code', 'name', 'region'], [code, name, region]);
for (const c of categories) insert('categories', ['id', 'name', 'department'], [c.id, c.name, c.department]);

for (const tenant of tenants) {
  insert(
    'organizations',
    ['id', 'name', 'industry', 'country_code', 'created_on'],
    [tenant.id, tenant.name, tenant.industry, tenant.country, tenant.createdOn],
  );
  const domain = `${tenant.name.split(' ')[0]?.toLowerCase()}.example`;
  const tenantStart = Math.max(start, Date.parse(`${tenant.createdOn}T00:00:00Z`));

  // Stores and their staff: one manager per store, reporting lines to them.
  const stores: { id: number; online: boolean; staff: number[]; opened: number }[] = [];
  for (const [index, store] of tenant.stores.entries()) {
    const sid = ++storeId;
    const opened =
      index === 0
        ? Date.parse(`${tenant.createdOn}T00:00:00Z`)
        : dateBetween(tenantStart, Date.UTC(2025, 5, 1));
    insert(
      'stores',
      ['id', 'org_id', 'name', 'store_type', 'city', 'country_code', 'opened_on'],
      [sid, tenant.id, store.name, store.type, store.city, store.country, isoDate(opened)],
    );
    const staff: number[] = [];
    const headcount = store.type === 'online' ? 3 : between(4, 7);
    let manager: number | null = null;
    for (let n = 0; n < headcount; n++) {
      const id = ++employeeId;
      const first = pick(firstNames);
      const last = pick(lastNames);
      const role = n === 0 ? 'store manager' : weighted(tenant.roles);
      const hired = n === 0 ? opened : dateBetween(opened, Date.UTC(2026, 8, 1));
      const rate = role === 'store manager' ? between(2600, 3600) / 100 : between(1450, 2300) / 100;
      const left = n > 0 && random() < 0.15;
      insert(
        'employees',
        [
          'id',
          'org_id',
          'store_id',
          'manager_id',
          'first_name',
          'last_name',
          'email',
          'role',
          'hired_on',
          'hourly_rate',
          'active',
        ],
        [
          id,
          tenant.id,
          sid,
          manager,
          first,
          last,
          emailOf(first, last, id, domain),
          role,
          isoDate(hired),
          money(rate),
          !left,
        ],
      );
      if (n === 0) manager = id;
      if (!left) staff.push(id);
    }
    stores.push({ id: sid, online: store.type === 'online', staff, opened });
  }

  // Products of the tenant's categories; prices drift up over the catalogue's life.
  const products: { id: number; price: number; launched: number }[] = [];
  for (const c of tenant.categories) {
    for (const name of c.products.names) {
      const id = ++productId;
      const [low, high] = c.products.price;
      const price = Math.round((low + random() ** 1.6 * (high - low)) * 100) / 100 - 0.01;
      const launched = random() < 0.7 ? tenantStart : dateBetween(tenantStart, Date.UTC(2026, 3, 1));
      const sku = `${tenant.name.slice(0, 2).toUpperCase()}-${c.name.slice(0, 3).toUpperCase()}-${String(id).padStart(4, '0')}`;
      insert(
        'products',
        [
          'id',
          'org_id',
          'category_id',
          'sku',
          'name',
          'unit_price',
          'unit_cost',
          'launched_on',
          'discontinued',
        ],
        [
          id,
          tenant.id,
          c.id,
          sku,
          name,
          money(Math.max(price, 2.99)),
          money(Math.max(price, 2.99) * (0.35 + random() * 0.25)),
          isoDate(launched),
          random() < 0.08,
        ],
      );
      products.push({ id, price: Math.max(price, 2.99), launched });
    }
  }

  // Customers: sign-ups spread over the tenant's life, a few business accounts.
  const customers: { id: number; since: number }[] = [];
  for (let n = 0; n < tenant.customers; n++) {
    const id = ++customerId;
    const first = pick(firstNames);
    const last = pick(lastNames);
    const country = weighted(tenant.countries);
    // Most of today's customers signed up early: the business grew, the early base stayed.
    const since =
      tenantStart + Math.floor(random() ** 1.7 * ((Date.UTC(2026, 8, 30) - tenantStart) / DAY)) * DAY;
    insert(
      'customers',
      [
        'id',
        'org_id',
        'first_name',
        'last_name',
        'email',
        'country_code',
        'city',
        'segment',
        'signed_up_on',
        'marketing_opt_in',
      ],
      [
        id,
        tenant.id,
        first,
        last,
        emailOf(first, last, id, 'mail.example'),
        country,
        pick(cities[country] ?? ['Unknown']),
        weighted([
          ['consumer', 80],
          ['business', 12],
          ['loyalty member', 8],
        ] as const),
        isoDate(since),
        random() < 0.55,
      ],
    );
    customers.push({ id, since });
  }

  // Orders with items and payments.
  for (let n = 0; n < tenant.orders; n++) {
    const day = orderDay(tenantStart);
    const eligible = customers.filter((c) => c.since <= day);
    const customer = eligible.length > 0 ? pick(eligible) : (customers[0] as (typeof customers)[0]);
    const at = day + between(8 * 3600, 21 * 3600) * 1000;
    const channel = weighted(tenant.channels);
    const physical = stores.filter((s) => !s.online && s.opened <= day);
    const store =
      channel === 'in_store' && physical.length > 0
        ? pick(physical)
        : (stores.find((s) => s.online) ?? pick(stores));
    const employee = channel === 'online' || store.staff.length === 0 ? null : pick(store.staff);
    const age = (end - day) / DAY;
    const status =
      age < 4
        ? weighted([
            ['pending', 40],
            ['paid', 40],
            ['shipped', 20],
          ] as const)
        : age < 12
          ? weighted([
              ['shipped', 55],
              ['delivered', 40],
              ['cancelled', 5],
            ] as const)
          : weighted([
              ['delivered', 88],
              ['cancelled', 6],
              ['returned', 6],
            ] as const);
    const id = ++orderId;
    const available = products.filter((p) => p.launched <= day);
    const lines = Math.min(available.length, between(...tenant.itemsPerOrder));
    const chosen = new Set<number>();
    let total = 0;
    const items: Value[][] = [];
    while (chosen.size < lines) {
      const product = pick(available);
      if (chosen.has(product.id)) continue;
      chosen.add(product.id);
      const quantity = between(...tenant.quantity);
      // Prices rise about 4% a year; some lines carry a discount.
      const yearFactor = 1 + 0.04 * ((day - start) / (365 * DAY) - 2);
      const unitPrice = Math.round(product.price * yearFactor * 100) / 100;
      const discount = random() < 0.18 ? pick([0.05, 0.1, 0.15, 0.2]) : 0;
      total += quantity * unitPrice * (1 - discount);
      items.push([++itemId, tenant.id, id, product.id, quantity, money(unitPrice), discount.toFixed(2)]);
    }
    const shipping = channel === 'in_store' ? 0 : total > 75 ? 0 : between(399, 899) / 100;
    insert(
      'orders',
      [
        'id',
        'org_id',
        'customer_id',
        'store_id',
        'employee_id',
        'ordered_at',
        'status',
        'channel',
        'shipping_cost',
      ],
      [id, tenant.id, customer.id, store.id, employee, isoTimestamp(at), status, channel, money(shipping)],
    );
    for (const item of items) {
      insert(
        'order_items',
        ['id', 'org_id', 'order_id', 'product_id', 'quantity', 'unit_price', 'discount'],
        item,
      );
    }
    if (status !== 'pending' && status !== 'cancelled') {
      const method =
        channel === 'in_store'
          ? weighted([
              ['card', 70],
              ['cash', 22],
              ['gift card', 8],
            ] as const)
          : weighted([
              ['card', 65],
              ['paypal', 28],
              ['gift card', 7],
            ] as const);
      insert(
        'payments',
        ['id', 'org_id', 'order_id', 'method', 'amount', 'paid_at'],
        [
          ++paymentId,
          tenant.id,
          id,
          method,
          money(total + shipping),
          isoTimestamp(at + between(0, 3600) * 1000),
        ],
      );
    }
  }
}

// ---- SQL ---------------------------------------------------------------------------------------

const literal = (value: Value): string => {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return String(value);
  return `'${value.replaceAll("'", "''")}'`;
};

const schema = `-- The demo database of the local stack (generated by local/demo/generate.ts; do not edit by
-- hand). Three retail tenants share one schema: every tenant table carries org_id, the row
-- policy of the demo (local/demo/seed.ts) filters on it, organizations is filtered on its id,
-- and countries and categories are shared reference tables. monthly_sales is a view listed in
-- the policy with its own tenant column.
CREATE TABLE countries (
  code char(2) PRIMARY KEY,
  name text NOT NULL,
  region text NOT NULL
);
CREATE TABLE categories (
  id integer PRIMARY KEY,
  name text NOT NULL,
  department text NOT NULL
);
CREATE TABLE organizations (
  id integer PRIMARY KEY,
  name text NOT NULL,
  industry text NOT NULL,
  country_code char(2) NOT NULL REFERENCES countries (code),
  created_on date NOT NULL
);
CREATE TABLE stores (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  store_type text NOT NULL,
  city text NOT NULL,
  country_code char(2) NOT NULL REFERENCES countries (code),
  opened_on date NOT NULL
);
CREATE TABLE employees (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  store_id integer NOT NULL REFERENCES stores (id),
  manager_id integer REFERENCES employees (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  role text NOT NULL,
  hired_on date NOT NULL,
  hourly_rate numeric(6, 2) NOT NULL,
  active boolean NOT NULL
);
CREATE TABLE customers (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  country_code char(2) NOT NULL REFERENCES countries (code),
  city text NOT NULL,
  segment text NOT NULL,
  signed_up_on date NOT NULL,
  marketing_opt_in boolean NOT NULL
);
CREATE TABLE products (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  category_id integer NOT NULL REFERENCES categories (id),
  sku text NOT NULL UNIQUE,
  name text NOT NULL,
  unit_price numeric(10, 2) NOT NULL,
  unit_cost numeric(10, 2) NOT NULL,
  launched_on date NOT NULL,
  discontinued boolean NOT NULL
);
CREATE TABLE orders (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  customer_id integer NOT NULL REFERENCES customers (id),
  store_id integer NOT NULL REFERENCES stores (id),
  employee_id integer REFERENCES employees (id),
  ordered_at timestamp NOT NULL,
  status text NOT NULL,
  channel text NOT NULL,
  shipping_cost numeric(8, 2) NOT NULL
);
CREATE TABLE order_items (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  order_id integer NOT NULL REFERENCES orders (id),
  product_id integer NOT NULL REFERENCES products (id),
  quantity integer NOT NULL CHECK (quantity > 0),
  unit_price numeric(10, 2) NOT NULL,
  discount numeric(4, 2) NOT NULL DEFAULT 0
);
CREATE TABLE payments (
  id integer PRIMARY KEY,
  org_id integer NOT NULL REFERENCES organizations (id),
  order_id integer NOT NULL REFERENCES orders (id),
  method text NOT NULL,
  amount numeric(10, 2) NOT NULL,
  paid_at timestamp NOT NULL
);
CREATE INDEX orders_org_ordered_at ON orders (org_id, ordered_at);
CREATE INDEX order_items_order ON order_items (order_id);
CREATE INDEX customers_org ON customers (org_id);
`;

const view = `
CREATE VIEW monthly_sales AS
SELECT o.org_id,
       date_trunc('month', o.ordered_at)::date AS month,
       count(DISTINCT o.id) AS orders,
       sum(i.quantity * i.unit_price * (1 - i.discount))::numeric(12, 2) AS revenue
FROM orders o
JOIN order_items i ON i.order_id = o.id
WHERE o.status NOT IN ('cancelled', 'returned')
GROUP BY o.org_id, date_trunc('month', o.ordered_at);
`;

const order = [
  'countries',
  'categories',
  'organizations',
  'stores',
  'employees',
  'customers',
  'products',
  'orders',
  'order_items',
  'payments',
];
const BATCH = 500;
let sql = schema;
for (const name of order) {
  const table = tables[name];
  if (!table) continue;
  for (let i = 0; i < table.rows.length; i += BATCH) {
    const rows = table.rows.slice(i, i + BATCH).map((row) => `(${row.map(literal).join(', ')})`);
    sql += `INSERT INTO ${name} (${table.columns.join(', ')}) VALUES\n${rows.join(',\n')};\n`;
  }
}
sql += view;

const target = fileURLToPath(new URL('./shop.sql', import.meta.url));
writeFileSync(target, sql);
const counts = order.map((name) => `${name} ${tables[name]?.rows.length ?? 0}`).join(', ');
console.log(`wrote ${target} (${Math.round(sql.length / 1024)} KB): ${counts}`);
