/**
 * The benchmark baseline: a bare Express app over the same database as the real server,
 * with the same three customer routes and the usage push (one record, or a bulk in one
 * INSERT) done minimally but honestly (Basic auth checked with a SHA-256 compare, the
 * metered line looked up, parameterised SQL, the JSON envelope). No Nest, no TypeORM, no
 * presentation of derived fields, no revisions or events.
 *
 * Self-contained on purpose (imports packages only): bench/run.ts transpiles it to plain
 * JavaScript and runs it with `node`, so its memory figure carries no TypeScript compiler.
 *
 * Environment: PORT, PUBLIC_URL, API_USERNAME, DB_TYPE (sqlite|mysql), DB_PATH or
 * DB_HOST/DB_PORT/DB_USER/DB_PASSWORD/DB_NAME.
 */
import Database from 'better-sqlite3';
import express, { NextFunction, Request, Response } from 'express';
import { createPool, Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

type Row = Record<string, unknown>;

interface NewCustomer {
  token: string;
  external_key: string | null;
  company: string | null;
  bill_state: string | null;
  ip: string | null;
  now: string;
}

/** The subscription and customer of a metered line. */
interface UsageTarget {
  package_id: number;
  customer_id: number;
}

interface NewUsage extends UsageTarget {
  line_item_id: number;
  usage_value: string;
  type: string;
  external_key: string | null;
  now: string;
}

/** The little the baseline needs from a database. */
interface Store {
  credentialDigest(username: string): Promise<Buffer | null>;
  customerById(id: number): Promise<Row | undefined>;
  customersByState(state: string, limit: number): Promise<Row[]>;
  /** Returns the new id, or null when the external key is taken. */
  insertCustomer(customer: NewCustomer): Promise<number | null>;
  /** The metered lines among `lineIds`, by id. */
  usageTargets(lineIds: number[]): Promise<Map<number, UsageTarget>>;
  /** Inserts the rows at once and returns their ids in order, or null when an external key is taken. */
  insertUsage(rows: NewUsage[]): Promise<number[] | null>;
  /** A SELECT of the growth benchmark's lists and counts (ours, never client text), with its parameters. */
  select(sql: string, params: Array<string | number>): Promise<Row[]>;
}

const SELECT_BY_ID = 'SELECT * FROM customer WHERE customer_id = ? AND deleted_datetime IS NULL';
const SELECT_BY_STATE =
  'SELECT * FROM customer WHERE bill_state = ? AND deleted_datetime IS NULL ORDER BY customer_id LIMIT ?';
const INSERT = `INSERT INTO customer (token, external_key, company, bill_state, customer_status_str,
  write_datetime, write_ipaddr, mod_datetime, mod_ipaddr) VALUES (?, ?, ?, ?, 'active-current', ?, ?, ?, ?)`;
const SELECT_CREDENTIAL = 'SELECT secret_sha256 FROM api_credential WHERE username = ?';
const SELECT_USAGE_TARGETS = `SELECT pl.line_item_id, pl.package_id, p.customer_id FROM package_line pl
  JOIN package p ON p.package_id = pl.package_id JOIN item i ON i.item_id = pl.item_id
  WHERE i.is_usage = 1 AND pl.cancel_datetime IS NULL AND pl.line_item_id IN`;
const USAGE_COLUMNS = `line_item_id, package_id, customer_id, usage_value, type, options, from_datetime,
  to_datetime, external_key, write_datetime`;

function usageValues(u: NewUsage): unknown[] {
  return [u.line_item_id, u.package_id, u.customer_id, u.usage_value, u.type, '', u.now, u.now, u.external_key, u.now];
}

function targetsById(rows: Row[]): Map<number, UsageTarget> {
  return new Map(
    rows.map((r) => [Number(r.line_item_id), { package_id: Number(r.package_id), customer_id: Number(r.customer_id) }]),
  );
}

class SqliteStore implements Store {
  private readonly byId: Database.Statement<[number], Row>;
  private readonly byState: Database.Statement<[string, number], Row>;
  private readonly insert: Database.Statement<unknown[]>;
  private readonly credential: Database.Statement<[string], { secret_sha256: string }>;
  private readonly targets: Database.Statement<[string], Row>;
  private readonly insertUsageRows: (rows: NewUsage[]) => number[];
  private readonly db: Database.Database;
  private readonly selects = new Map<string, Database.Statement<unknown[], Row>>();

  constructor(path: string) {
    const db = new Database(path);
    this.db = db;
    // The server's settings: WAL, and every commit synced to disk before the answer.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    this.byId = db.prepare(SELECT_BY_ID);
    this.byState = db.prepare(SELECT_BY_STATE);
    this.insert = db.prepare(INSERT);
    this.credential = db.prepare(SELECT_CREDENTIAL);
    // One statement for any number of ids: they come as a JSON array.
    this.targets = db.prepare(`${SELECT_USAGE_TARGETS} (SELECT value FROM json_each(?))`);
    const insertUsage = db.prepare(`INSERT INTO usage_record (${USAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // Every row in one transaction: one commit (one sync) per request, as a batched INSERT.
    this.insertUsageRows = db.transaction((rows: NewUsage[]) =>
      rows.map((u) => Number(insertUsage.run(...usageValues(u)).lastInsertRowid)),
    );
  }

  credentialDigest(username: string): Promise<Buffer | null> {
    const row = this.credential.get(username);
    return Promise.resolve(row ? Buffer.from(row.secret_sha256, 'hex') : null);
  }

  customerById(id: number): Promise<Row | undefined> {
    return Promise.resolve(this.byId.get(id));
  }

  customersByState(state: string, limit: number): Promise<Row[]> {
    return Promise.resolve(this.byState.all(state, limit));
  }

  insertCustomer(c: NewCustomer): Promise<number | null> {
    try {
      const info = this.insert.run(c.token, c.external_key, c.company, c.bill_state, c.now, c.ip, c.now, c.ip);
      return Promise.resolve(Number(info.lastInsertRowid));
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return Promise.resolve(null);
      throw error;
    }
  }

  usageTargets(lineIds: number[]): Promise<Map<number, UsageTarget>> {
    return Promise.resolve(targetsById(this.targets.all(JSON.stringify(lineIds))));
  }

  select(sql: string, params: Array<string | number>): Promise<Row[]> {
    let statement = this.selects.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], Row>(sql);
      this.selects.set(sql, statement);
    }
    // Digits bind as integers (ids, LIMIT), as the server's driver binds them.
    return Promise.resolve(statement.all(...params.map((p) => (/^\d+$/.test(String(p)) ? Number(p) : p))));
  }

  insertUsage(rows: NewUsage[]): Promise<number[] | null> {
    try {
      return Promise.resolve(this.insertUsageRows(rows));
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return Promise.resolve(null);
      throw error;
    }
  }
}

class MysqlStore implements Store {
  private readonly pool: Pool;

  constructor(env: NodeJS.ProcessEnv) {
    // The same pool size as the real server's data source.
    this.pool = createPool({
      host: env.DB_HOST ?? '127.0.0.1',
      port: Number(env.DB_PORT ?? 3306),
      user: env.DB_USER ?? 'root',
      password: env.DB_PASSWORD ?? '',
      database: env.DB_NAME ?? 'billing',
      timezone: 'Z',
      connectionLimit: 20,
    });
  }

  async credentialDigest(username: string): Promise<Buffer | null> {
    const [rows] = await this.pool.execute<RowDataPacket[]>(SELECT_CREDENTIAL, [username]);
    return rows.length > 0 ? Buffer.from(String(rows[0].secret_sha256), 'hex') : null;
  }

  async customerById(id: number): Promise<Row | undefined> {
    const [rows] = await this.pool.execute<RowDataPacket[]>(SELECT_BY_ID, [id]);
    return rows[0];
  }

  async customersByState(state: string, limit: number): Promise<Row[]> {
    // LIMIT as a bound parameter must be a string for mysql2's execute().
    const [rows] = await this.pool.execute<RowDataPacket[]>(SELECT_BY_STATE, [state, String(limit)]);
    return rows;
  }

  async insertCustomer(c: NewCustomer): Promise<number | null> {
    try {
      const [result] = await this.pool.execute<ResultSetHeader>(INSERT, [
        c.token,
        c.external_key,
        c.company,
        c.bill_state,
        c.now,
        c.ip,
        c.now,
        c.ip,
      ]);
      return result.insertId;
    } catch (error) {
      if ((error as { code?: string }).code === 'ER_DUP_ENTRY') return null;
      throw error;
    }
  }

  async usageTargets(lineIds: number[]): Promise<Map<number, UsageTarget>> {
    const [rows] = await this.pool.query<RowDataPacket[]>(`${SELECT_USAGE_TARGETS} (?)`, [lineIds]);
    return targetsById(rows);
  }

  async select(sql: string, params: Array<string | number>): Promise<Row[]> {
    // LIMIT as a bound parameter must be a string for mysql2's execute().
    const [rows] = await this.pool.execute<RowDataPacket[]>(sql, params.map(String));
    return rows;
  }

  /** One multi-row INSERT (atomic on its own); MariaDB gives it consecutive ids from insertId. */
  async insertUsage(rows: NewUsage[]): Promise<number[] | null> {
    try {
      const [result] = await this.pool.query<ResultSetHeader>(`INSERT INTO usage_record (${USAGE_COLUMNS}) VALUES ?`, [
        rows.map(usageValues),
      ]);
      return rows.map((_, i) => result.insertId + i);
    } catch (error) {
      if ((error as { code?: string }).code === 'ER_DUP_ENTRY') return null;
      throw error;
    }
  }
}

function envelope(code: number, response: unknown): Row {
  return { code, status: 'OK', message: '', details: {}, response };
}

function sendError(res: Response, code: number, message: string): void {
  res.status(code).json({ code, status: 'Error', message, details: {}, response: false });
}

/** Basic auth: the username's stored SHA-256 digest (cached, as the server does) against the password's. */
function basicAuth(expectedUser: string, digest: Buffer) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers.authorization ?? '';
    const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const candidate = createHash('sha256')
      .update(colon === -1 ? '' : decoded.slice(colon + 1), 'utf8')
      .digest();
    const userMatches = colon !== -1 && decoded.slice(0, colon) === expectedUser;
    if (timingSafeEqual(candidate, digest) && userMatches) return next();
    sendError(res, 401, 'Authentication failed.');
  };
}

const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomToken(): string {
  let token = '';
  for (let i = 0; i < 12; i++) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}

function sqlUtcNow(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

function optionalString(body: Row, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new TypeError(`Field "${field}" must be a string.`);
  return value;
}

const MAX_BULK_USAGE = 1000;
const USAGE_TYPES = ['add', 'max', 'lat'];

/** A usage record's fields (by `line_item_id` only), or what is wrong with it. */
function parseUsage(raw: unknown, now: string): Omit<NewUsage, keyof UsageTarget> | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'A usage record must be a JSON object.';
  const fields = raw as Row;
  const line = fields.line_item_id;
  if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1) {
    return 'Invalid field "line_item_id": must be a positive integer.';
  }
  const value = fields.usage_value;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    return 'Invalid field "usage_value": must be a number of at least 0.';
  }
  const type = fields.type ?? 'add';
  if (typeof type !== 'string' || !USAGE_TYPES.includes(type)) return 'Invalid field "type".';
  try {
    return {
      line_item_id: line,
      usage_value: String(value),
      type,
      external_key: optionalString(fields, 'external_key'),
      now,
    };
  } catch (error) {
    return (error as Error).message;
  }
}

/** Each record parsed and its line looked up (one query); the good ones inserted at once. */
async function recordUsage(store: Store, records: unknown[]): Promise<Array<number | string> | null> {
  const now = sqlUtcNow();
  const parsed = records.map((raw) => parseUsage(raw, now));
  const lineIds = [...new Set(parsed.flatMap((p) => (typeof p === 'string' ? [] : [p.line_item_id])))];
  const targets = lineIds.length ? await store.usageTargets(lineIds) : new Map<number, UsageTarget>();
  const outcomes: Array<number | string | NewUsage> = parsed.map((p) => {
    if (typeof p === 'string') return p;
    const target = targets.get(p.line_item_id);
    return target ? { ...p, ...target } : `Field "line_item_id": no metered line with id ${p.line_item_id}.`;
  });
  const rows = outcomes.filter((o): o is NewUsage => typeof o === 'object');
  const ids = rows.length ? await store.insertUsage(rows) : [];
  if (ids === null) return null;
  let next = 0;
  return outcomes.map((o) => (typeof o === 'object' ? ids[next++] : o));
}

function parseListQuery(query: Request['query']): { state: string; limit: number } | string {
  const match = typeof query.where === 'string' ? /^bill_state:EQUALS:(.+)$/.exec(query.where) : null;
  if (!match) return 'Only where=bill_state:EQUALS:<state> is supported here.';
  const rawLimit = query.limit ?? '10';
  const limit = typeof rawLimit === 'string' && /^\d+$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!(limit >= 1 && limit <= 500)) return 'limit must be an integer from 1 to 500.';
  return { state: match[1], limit };
}

/**
 * The growth benchmark's filters, as a bare server would write them: each a plain indexed
 * condition (the overdue customers by their stored earliest open due date, the past-due
 * invoices by status and due date). Null for anything else.
 */
const GROWTH_FILTERS: Record<string, Array<{ pattern: RegExp; sql: string }>> = {
  customer: [
    { pattern: /^bill_state:EQUALS:([A-Z]{2})$/, sql: 'bill_state = ?' },
    { pattern: /^customer_status_str:EQUALS:active-overdue$/, sql: "open_due_date < '{today}'" },
    { pattern: /^external_key:GTE:([\w-]+),external_key:LT:([\w-]+)$/, sql: 'external_key >= ? AND external_key < ?' },
  ],
  invoice: [
    { pattern: /^customer_id:EQUALS:(\d+)$/, sql: 'customer_id = ?' },
    {
      pattern: /^invoice_status_str:EQUALS:open-overdue$/,
      sql: "(invoice_status_str = 'open-overdue' OR (invoice_status_str = 'open-unpaid' AND due_date < '{today}'))",
    },
  ],
};
const GROWTH_ORDERS: Record<string, string> = {
  'write_datetime:DESC': 'write_datetime DESC',
  'date:DESC': 'date DESC',
};

function growthWhere(table: string, where: unknown): { sql: string; params: string[] } | null {
  const today = sqlUtcNow().slice(0, 10);
  if (where === undefined) return { sql: 'deleted_datetime IS NULL', params: [] };
  for (const filter of GROWTH_FILTERS[table]) {
    const match = typeof where === 'string' ? filter.pattern.exec(where) : null;
    if (match)
      return { sql: `${filter.sql.replace('{today}', today)} AND deleted_datetime IS NULL`, params: match.slice(1) };
  }
  return null;
}

/** GET /customer and /invoice lists and counts of the growth benchmark (bench/growth.ts). */
function growthRoutes(store: Store, router: express.Router): void {
  for (const table of ['customer', 'invoice']) {
    router.get(`/api/v3/${table}/_count`, async (req: Request, res: Response) => {
      const where = growthWhere(table, req.query.where);
      if (!where) return sendError(res, 400, 'Unsupported where.');
      const [row] = await store.select(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where.sql}`, where.params);
      res.json(envelope(200, Number(row.n)));
    });
    router.get(`/api/v3/${table}`, async (req: Request, res: Response, next: NextFunction) => {
      if (table === 'customer' && typeof req.query.where === 'string' && req.query.where.startsWith('bill_state')) {
        return next(); // the original list route
      }
      const where = growthWhere(table, req.query.where);
      const orderParam = req.query.order;
      const order =
        orderParam === undefined
          ? `${table}_id`
          : typeof orderParam === 'string'
            ? GROWTH_ORDERS[orderParam]
            : undefined;
      const limit = req.query.limit ?? '100';
      if (!where || !order || typeof limit !== 'string' || !/^\d+$/.test(limit)) {
        return sendError(res, 400, 'Unsupported list.');
      }
      const sql = `SELECT * FROM ${table} WHERE ${where.sql} ORDER BY ${order} LIMIT ?`;
      res.json(envelope(200, await store.select(sql, [...where.params, limit])));
    });
  }
}

function routes(store: Store, publicUrl: string): express.Router {
  const router = express.Router();
  growthRoutes(store, router);

  router.get('/api/v3/customer/:id', async (req: Request<{ id: string }>, res: Response) => {
    const id = /^\d+$/.test(req.params.id) ? Number(req.params.id) : NaN;
    const row = Number.isSafeInteger(id) ? await store.customerById(id) : undefined;
    if (!row) return sendError(res, 404, 'This customer does not exist.');
    res.json(envelope(200, row));
  });

  router.get('/api/v3/customer', async (req: Request, res: Response) => {
    const query = parseListQuery(req.query);
    if (typeof query === 'string') return sendError(res, 400, query);
    res.json(envelope(200, await store.customersByState(query.state, query.limit)));
  });

  router.post('/api/v3/customer', async (req: Request, res: Response) => {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendError(res, 400, 'The request body must be a JSON object.');
    }
    let customer: NewCustomer;
    try {
      const fields = body as Row;
      customer = {
        token: randomToken(),
        external_key: optionalString(fields, 'external_key'),
        company: optionalString(fields, 'company'),
        bill_state: optionalString(fields, 'bill_state'),
        ip: req.ip ?? null,
        now: sqlUtcNow(),
      };
    } catch (error) {
      return sendError(res, 400, (error as Error).message);
    }
    const id = await store.insertCustomer(customer);
    if (id === null) return sendError(res, 400, 'Field "external_key": this external key is already in use.');
    res.status(201).location(`${publicUrl}/api/v3/customer/${id}`).json(envelope(201, { id }));
  });

  router.post('/api/v3/usage', async (req: Request, res: Response) => {
    const bulk = req.query.action === 'bulk';
    const body: unknown = req.body;
    const records = bulk ? body : [body];
    if (!Array.isArray(records) || records.length === 0 || records.length > MAX_BULK_USAGE) {
      return sendError(res, 400, `The request body must be a JSON array of 1 to ${MAX_BULK_USAGE} usage records.`);
    }
    const outcomes = await recordUsage(store, records);
    if (outcomes === null) return sendError(res, 400, 'Field "external_key": a usage external key is already in use.');
    if (!bulk) {
      const [outcome] = outcomes;
      if (typeof outcome === 'string') return sendError(res, 400, outcome);
      return res
        .status(201)
        .location(`${publicUrl}/api/v3/usage/${outcome}`)
        .json(envelope(201, { id: outcome }));
    }
    res.json(
      envelope(
        200,
        outcomes.map((o) =>
          typeof o === 'number'
            ? { code: 201, status: 'OK', message: '', response: { id: o } }
            : { code: 400, status: 'Error', message: o, response: false },
        ),
      ),
    );
  });

  return router;
}

async function main(): Promise<void> {
  const env = process.env;
  const port = Number(env.PORT ?? 3001);
  const username = env.API_USERNAME ?? 'bench';
  const store: Store = env.DB_TYPE === 'mysql' ? new MysqlStore(env) : new SqliteStore(env.DB_PATH ?? 'bench.sqlite');
  const digest = await store.credentialDigest(username);
  if (!digest) throw new Error(`No api_credential row for ${username}: start the real server on this database first.`);

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb', strict: false, type: () => true }));
  app.use(basicAuth(username, digest));
  app.use(routes(store, env.PUBLIC_URL ?? `http://localhost:${port}`));
  app.use((_req: Request, res: Response) => sendError(res, 400, 'Invalid endpoint.'));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    process.stderr.write(`baseline: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    sendError(res, 500, 'Internal error.');
  });
  app.listen(port, () => process.stdout.write(`baseline listening on ${port}\n`));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
