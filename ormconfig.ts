import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { APP_ENTITIES } from 'src/app.entities';
import { loadConfig, loadDotEnv } from 'src/config/load-config';
import { buildDataSourceOptions } from 'src/database/data-source-options';

loadDotEnv();

/** DataSource for the TypeORM CLI: `npm run typeorm -- migration:run`. */
export default new DataSource(buildDataSourceOptions(loadConfig().db, APP_ENTITIES));
