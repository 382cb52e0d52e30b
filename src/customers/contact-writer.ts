import { EntityManager } from 'typeorm';
import { randomToken } from 'src/core/refs/random-token';
import { ApiError } from 'src/core/envelope/api-error';
import { Contact } from './entities/contact.entity';

/**
 * A portal username must be unique among live contacts. `field` is the username's field on
 * the wire, for the 400 (`superuser_username` on a customer).
 */
export async function assertUsernameFree(
  manager: EntityManager,
  username: string,
  exceptId?: number,
  field = 'username',
): Promise<void> {
  const existing = await manager.findOne(Contact, {
    where: { username },
    withDeleted: true,
    select: { user_id: true },
  });
  if (existing && existing.user_id !== exceptId) {
    throw ApiError.badRequest(`Field "${field}": the username "${username}" is already taken.`);
  }
}

/** A username for a contact created without one (as the reference service does). */
export function generatedUsername(): string {
  return randomToken(12);
}

type NameFields = Partial<Pick<Contact, 'name' | 'first_name' | 'middle_name_glob' | 'last_name'>>;

/**
 * The name columns a write sets. A written `name` is split into first, middle and last
 * name, as the reference service does ("Keith's Test Cmopany", and `PUT {name: "Jane Doe"}`
 * turning Jane Smith into Jane Doe); parts sent beside it win. The stored `name` is then
 * cleared, so the name is derived from its parts and follows later changes to them.
 * `field` is the name's field on the wire, for the 400 (`superuser_name` on a customer).
 */
export function nameColumns(fields: NameFields, field = 'name'): NameFields {
  if (fields.name === undefined) return {};
  const words = (fields.name ?? '')
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  const split = {
    first_name: words[0] ?? null,
    middle_name_glob: words.length > 2 ? words.slice(1, -1).join(' ') : null,
    last_name: words.length > 1 ? words[words.length - 1] : null,
  };
  if (Object.values(split).some((part) => part !== null && part.length > 128)) {
    throw ApiError.badRequest(
      `Invalid field "${field}": each of its first, middle and last name must be at most 128 characters long.`,
    );
  }
  return {
    name: null,
    first_name: fields.first_name === undefined ? split.first_name : fields.first_name,
    middle_name_glob: fields.middle_name_glob === undefined ? split.middle_name_glob : fields.middle_name_glob,
    last_name: fields.last_name === undefined ? split.last_name : fields.last_name,
  };
}
