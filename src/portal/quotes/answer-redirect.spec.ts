import { answerRedirect } from './answer-redirect';

describe('answerRedirect', () => {
  it('follows absolute http and https URLs', () => {
    expect(answerRedirect('https://shop.example.com/thanks?q=1')).toBe('https://shop.example.com/thanks?q=1');
    expect(answerRedirect(' http://shop.example.com/sorry ')).toBe('http://shop.example.com/sorry');
  });

  it('never follows other schemes, relative paths, credentials or nothing', () => {
    for (const stored of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<script>1</script>',
      'ftp://files.example.com/',
      '/portal/home',
      '//evil.example.com/',
      'https://user:pass@shop.example.com/',
      '',
      '   ',
      null,
      undefined,
      42,
    ]) {
      expect(answerRedirect(stored)).toBeNull();
    }
  });
});
