import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { BasicStrategy } from 'passport-http';
import { AuthenticatedUser } from 'src/core/context/request-context';
import { BasicAuthenticator } from './basic-authenticator';

/**
 * Where BasicAuthGuard leaves its application's authenticator on the request: passport's
 * strategies are registered process-wide by name, so the last application built (tests build
 * several) would otherwise check every application's requests against its own database.
 */
export const REQUEST_AUTHENTICATOR = Symbol('basicAuthenticator');

export type RequestWithAuthenticator = Request & { [REQUEST_AUTHENTICATOR]?: BasicAuthenticator };

/**
 * HTTP Basic through passport-http's BasicStrategy (`AuthGuard('basic')`, BasicAuthGuard).
 * passport-http splits the decoded pair at every colon and hands over only what lies between
 * the first and the second as the password, so the verify step does not use it: it reads the
 * whole header again as RFC 7617 says (user-id up to the first colon, the password all the
 * rest), with the credential cache and the sign-in throttle (BasicAuthenticator).
 */
@Injectable()
export class HttpBasicStrategy extends PassportStrategy(BasicStrategy, 'basic') {
  constructor() {
    super({ passReqToCallback: true });
  }

  validate(req: RequestWithAuthenticator, _userId: string, _passwordToSecondColon: string): Promise<AuthenticatedUser> {
    const authenticator = req[REQUEST_AUTHENTICATOR];
    if (!authenticator) throw new Error('HttpBasicStrategy: no authenticator on the request (BasicAuthGuard sets it)');
    return authenticator.authenticate(req, req.res as Response);
  }
}
