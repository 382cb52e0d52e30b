/**
 * The benchmark baseline: a bare Express app over the same database as the real server,
 * with the same three customer routes done minimally but honestly (Basic auth checked with
 * a SHA-256 compare, parameterised SQL, the JSON envelope). No Nest, no TypeORM, no
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

/** The little the baseline needs from a database. */
interface Store {
  credentialDigest(username: string): Promise<Buffer | null>;
  customerById(id: number): Promise<Row | undefined>;
  customersByState(state: string, limit: number): Promise<Row[]>;
  /** Returns the new id, or null when the external key is taken. */
  insertCustomer(customer: NewCustomer): Promise<number | null>;
}

const SELECT_BY_ID = 'SELECT * FROM customer WHERE customer_id = ? AND deleted_datetime IS NULL';
const SELECT_BY_STATE =
  'SELECT * FROM customer WHERE bill_state = ? AND deleted_datetime IS NULL ORDER BY customer_id LIMIT ?';
const INSERT = `INSERT INTO customer (token, external_key, company, bill_state, customer_status_str,
  write_datetime, write_ipaddr, mod_datetime, mod_ipaddr) VALUES (?, ?, ?, ?, 'active-current', ?, ?, ?, ?)`;
const SELECT_CREDENTIAL = 'SELECT secret_sha256 FROM api_credential WHERE username = ?';

class SqliteStore implements Store {
  private readonly byId: Database.Statement<[number], Row>;
  private readonly byState: Database.Statement<[string, number], Row>;
  private readonly insert: Database.Statement<unknown[]>;
  private readonly credential: Database.Statement<[string], { secret_sha256: string }>;

  constructor(path: string) {
    const db = new Database(path);
    // The server's settings: WAL, and every commit synced to disk before the answer.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    this.byId = db.prepare(SELECT_BY_ID);
    this.byState = db.prepare(SELECT_BY_STATE);
    this.insert = db.prepare(INSERT);
    this.credential = db.prepare(SELECT_CREDENTIAL);
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

function parseListQuery(query: Request['query']): { state: string; limit: number } | string {
  const match = typeof query.where === 'string' ? /^bill_state:EQUALS:(.+)$/.exec(query.where) : null;
  if (!match) return 'Only where=bill_state:EQUALS:<state> is supported here.';
  const rawLimit = query.limit ?? '10';
  const limit = typeof rawLimit === 'string' && /^\d+$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!(limit >= 1 && limit <= 500)) return 'limit must be an integer from 1 to 500.';
  return { state: match[1], limit };
}

function routes(store: Store, publicUrl: string): express.Router {
  const router = express.Router();

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
