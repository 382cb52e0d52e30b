import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy as PassportBasicStrategy } from 'passport-http';
import { AuthenticatedUser } from 'src/core/context/request-context';
import { CredentialService } from './credential.service';

/** HTTP Basic through passport-http, checked against the API credential table. */
@Injectable()
export class BasicStrategy extends PassportStrategy(PassportBasicStrategy, 'basic') {
  constructor(private readonly credentials: CredentialService) {
    super();
  }

  async validate(username: string, password: string): Promise<AuthenticatedUser | false> {
    const id = await this.credentials.verify(username, password);
    return id === null ? false : { apiCredentialId: id, username };
  }
}
