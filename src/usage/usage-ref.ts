import { RefTarget } from 'src/core/refs/ref-resolver';
import { UsageRecord } from './entities/usage-record.entity';

export const USAGE_REF: RefTarget<UsageRecord> = {
  entity: UsageRecord,
  idColumn: 'usage_id',
  resource: 'usage',
};
