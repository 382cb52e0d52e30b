import { QueryFailedError } from 'typeorm';
import { failedDependency } from './dependency-failure';

const coded = (code: string) => Object.assign(new Error(code), { code });

describe('failedDependency', () => {
  it.each(['PROTOCOL_SEQUENCE_TIMEOUT', 'ETIMEDOUT', 'ECONNREFUSED', 'SQLITE_BUSY'])(
    'names the database for %s',
    (code) => {
      expect(failedDependency(coded(code))).toBe('database');
      expect(failedDependency(new QueryFailedError('SELECT 1', [], coded(code)))).toBe('database');
    },
  );

  it.each(['Command timed out', "Stream isn't writeable and enableOfflineQueue options is false"])(
    'names Redis for "%s"',
    (message) => {
      expect(failedDependency(new Error(message))).toBe('redis');
    },
  );

  it('leaves other errors alone (a bad statement is a bug, not an outage)', () => {
    expect(failedDependency(coded('ER_PARSE_ERROR'))).toBeNull();
    expect(failedDependency(new Error('boom'))).toBeNull();
    expect(failedDependency('text')).toBeNull();
  });
});
