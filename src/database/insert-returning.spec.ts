import { isMariaDbWithReturning } from './insert-returning';

describe('isMariaDbWithReturning', () => {
  it.each([
    ['10.11.6-MariaDB-0+deb12u1', true],
    ['10.5.0-MariaDB', true],
    ['11.4.2-MariaDB-ubu2404', true],
    ['10.4.34-MariaDB-log', false],
    ['10.2.27-MariaDB-10.2.27+maria~jessie-log', false],
    ['8.4.3', false],
    ['8.0.36-standard', false],
    ['9.1.0', false],
  ])('%s: %s', (version, expected) => {
    expect(isMariaDbWithReturning(version)).toBe(expected);
  });
});
