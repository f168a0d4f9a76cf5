// Entry for the TypeORM CLI (e.g. `npx typeorm migration:generate -d dist/libs/persistence/src/data-source.js`).
import { DataSource } from 'typeorm';
import { loadConfig } from '@mailproof/config';
import { buildDataSourceOptions } from './data-source-options';

export default new DataSource(buildDataSourceOptions({ url: loadConfig().database.url }));
