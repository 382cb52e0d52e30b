import { Injectable } from '@nestjs/common';
import { verify } from 'argon2';
import { DataSource } from 'typeorm';
import { Contact } from 'src/customers/entities/contact.entity';

/** A fixed argon2 hash to verify against when the username is unknown, so both cases take as long. */
const DECOY = '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHRzb21lc2FsdA$ZG8gbm90IHVzZSB0aGlzIGFzIGEgcGFzc3dvcmQ';

/** Username and password sign-in to the portal (usernames ignore case, as everywhere). */
@Injectable()
export class PortalSignIn {
  constructor(private readonly dataSource: DataSource) {}

  async check(username: string, password: string): Promise<Contact | null> {
    const contact = await this.dataSource
      .getRepository(Contact)
      .createQueryBuilder('u')
      .where('LOWER(u.username) = LOWER(:username)', { username })
      .getOne();
    const ok = await verify(contact?.password_hash ?? DECOY, password).catch(() => false);
    return contact?.password_hash && ok ? contact : null;
  }

  contact(userId: number): Promise<Contact | null> {
    return this.dataSource.getRepository(Contact).findOneBy({ user_id: userId });
  }
}
