import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** The one place that turns settings into TypeORM options. synchronize is never on. */
export function buildDataSourceOptions(settings: { url: string; poolSize?: number }): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: settings.poolSize ?? 10, connectionTimeoutMillis: 5_000 },
  };
}
