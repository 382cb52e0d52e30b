import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig, loadDotEnv } from 'src/config/load-config';
import { buildDataSourceOptions } from 'src/database/data-source-options';
import { findEntities } from 'src/database/discovery';

loadDotEnv();

/** DataSource for the TypeORM CLI: `npm run typeorm -- migration:run`. */
export default new DataSource(buildDataSourceOptions(loadConfig().db, findEntities()));
