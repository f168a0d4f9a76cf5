import { DataSource, QueryFailedError } from 'typeorm';
import { preparedQuery } from '@mailproof/persistence';
import { PostgresFaultProxy } from '../utils/postgres-fault-proxy';
import { waitFor } from '../utils/wait';

/**
 * The preview's hot path takes clients from TypeORM's pool itself (libs/persistence/src/prepared-query.ts).
 * A session PostgreSQL ends while such a client is out must neither end the process (node-postgres emits
 * it as an 'error' event) nor leave the broken connection in the pool. A proxy in front of the real
 * PostgreSQL sends FATAL 57P01 in the same chunk as a ReadyForQuery, the moment that once killed the API.
 */
describe('preparedQuery when PostgreSQL ends the session', () => {
  let proxy: PostgresFaultProxy;
  let dataSource: DataSource;
  const poolErrors: Error[] = [];

  beforeAll(async () => {
    const upstream = process.env.DATABASE_URL!;
    proxy = await PostgresFaultProxy.start(upstream);
    dataSource = new DataSource({
      type: 'postgres',
      url: proxy.urlFor(upstream),
      entities: [],
      // Idle clients close at once, so a test can start from an empty pool; errors of idle clients are counted.
      extra: { max: 2, idleTimeoutMillis: 20 },
      poolErrorHandler: (error: Error) => void poolErrors.push(error),
    });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy().catch(() => undefined);
    await proxy?.close();
  });

  const one = () => preparedQuery<{ n: number }>(dataSource, 'prepared_query_spec_one', 'SELECT $1::int AS n', [1]);

  it('answers a statement whose result came with the end of its session, and does not reuse that connection', async () => {
    await expect(one()).resolves.toMatchObject({ rows: [{ n: 1 }] });
    const before = proxy.connections;
    proxy.endNextSessionAfterReadyForQuery();
    // The statement's ReadyForQuery and the FATAL arrive in one read: the result stands, the event is heard.
    await expect(one()).resolves.toMatchObject({ rows: [{ n: 1 }] });
    expect(proxy.sessionsEnded).toBe(1);
    // The next statement runs on a new session (the ended one was released as broken, not kept idle).
    await waitFor(() => proxy.openSessions === 0, 'the ended session to close');
    await expect(one()).resolves.toMatchObject({ rows: [{ n: 1 }] });
    expect(proxy.connections).toBe(before + 1);
  });

  it('fails a statement whose session ended as it was handed out with a QueryFailedError, and the next one works', async () => {
    await waitFor(() => proxy.openSessions === 0, 'the pool to close its idle sessions');
    proxy.endNextSessionAfterReadyForQuery();
    // The new session's first ReadyForQuery (login done) comes with the FATAL: the client is handed out broken.
    const failure = await one().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect(proxy.sessionsEnded).toBe(2);
    await expect(one()).resolves.toMatchObject({ rows: [{ n: 1 }] });
  });
});
