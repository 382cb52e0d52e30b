/** The body of an action that takes none: any field sent is a 400 naming it. */
export class NoBodyDto {}
