/**
 * The one error type business code throws. The exception filter turns it into the
 * `{code, status, message, details, response:false}` envelope; nothing else about it
 * (stack, cause) ever reaches a client.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static badRequest(message: string, details?: Record<string, unknown>): ApiError {
    return new ApiError(400, message, details);
  }

  /** 404 with the wire's wording: "This customer does not exist." */
  static notFound(resource: string): ApiError {
    return new ApiError(404, `This ${resource} does not exist.`);
  }

  static unauthorized(
    message = 'Authentication failed: the API username or password is missing or incorrect.',
  ): ApiError {
    return new ApiError(401, message);
  }
}
