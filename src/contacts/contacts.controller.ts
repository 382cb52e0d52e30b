import { Controller } from '@nestjs/common';
import { ActionCatalog } from 'src/core/actions/action-catalog';
import { ResourceController } from 'src/core/resource/resource-controller';
import { ContactsService } from './contacts.service';
import { LoginUrlDto, SetPasswordDto } from './dto/contact-actions.dto';
import { CreateContactDto, UpdateContactDto } from './dto/contact-fields.dto';
import { WireContact } from 'src/customers/wire-contact';

@Controller('api/v3/user')
export class ContactsController extends ResourceController({
  resource: 'user',
  noun: 'contact',
  plural: 'contacts',
  create: CreateContactDto,
  update: UpdateContactDto,
  remove: true,
  actions: true,
  response: { one: WireContact },
}) {
  constructor(
    protected readonly reads: ContactsService,
    catalog: ActionCatalog,
  ) {
    super();
    catalog.object(
      'user',
      'password',
      { summary: "Set the contact's portal password, or mail a reset link", body: { dto: SetPasswordDto } },
      (ref, dto, ctx) => this.reads.password(ctx, ref, dto.password),
    );
    catalog.object(
      'user',
      'getLoginURL',
      { summary: 'A one-time portal login URL', body: { dto: LoginUrlDto } },
      (ref, dto, ctx) => this.reads.loginUrl(ctx, ref, dto.destination),
    );
    // The older API's names, still sent by its client libraries (DESIGN §4 Actions).
    catalog.objectAlias('user', 'reset_password', 'password');
    catalog.objectAlias('user', 'login', 'getLoginURL');
  }
}
