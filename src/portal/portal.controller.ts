import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { LinkPurpose, PortalLinksService } from 'src/contacts/portal-links.service';
import { Public } from 'src/core/auth/public.decorator';

/**
 * Hosted portal entry points reached by a browser, not the API (no Basic auth, HTML
 * answers). The full portal pages come later; its links are already single-use.
 */
@Public()
@Controller('portal')
export class PortalController {
  constructor(private readonly links: PortalLinksService) {}

  /** A `getLoginURL` link: signs the contact in, to its destination or the home page. */
  @Get('login/:token')
  login(@Param('token') token: string, @Res() res: Response): Promise<void> {
    return this.enter(token, 'login', res);
  }

  /** The link of the password-reset mail: signs the contact in to the password page. */
  @Get('password-reset/:token')
  passwordReset(@Param('token') token: string, @Res() res: Response): Promise<void> {
    return this.enter(token, 'password-reset', res);
  }

  private async enter(token: string, purpose: LinkPurpose, res: Response): Promise<void> {
    const link = await this.links.consume(token, purpose);
    // The token is in the URL: keep it out of caches and of the Referer of the next page.
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    if (!link) {
      res.status(410).type('html').send(page('This link has expired or was already used.'));
      return;
    }
    const destination = link.destination ?? 'home';
    res
      .status(200)
      .type('html')
      .send(page(`You are signed in to the customer portal. Continue to: ${destination}.`));
  }
}

function page(message: string): string {
  const safe = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Customer portal</title></head><body><p>${safe}</p></body></html>`;
}
