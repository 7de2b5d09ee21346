// Response helpers: every success goes out as JSON through here.
import type { ApiResult } from './types.ts';

const jsonHeaders = { 'Content-Type': 'application/json; charset=utf-8' };

export const json = (
  statusCode: number,
  payload: unknown,
  headers: Record<string, string> = {},
): ApiResult => ({
  statusCode,
  headers: { ...jsonHeaders, ...headers },
  body: JSON.stringify(payload),
});

/** The spec's Data response: `{success: true, data}` (plus an optional `message`). */
export const ok = <T>(data: T, options: { status?: number; message?: string } = {}): ApiResult =>
  json(
    options.status ?? 200,
    options.message === undefined
      ? { success: true, data }
      : { success: true, data, message: options.message },
  );

export interface PageInfo {
  page: number;
  pageSize: number;
  totalItems: number;
}

/** The spec's Paginated response for page-numbered lists. */
export const paginated = <T>(items: T[], { page, pageSize, totalItems }: PageInfo): ApiResult => {
  const totalPages = Math.ceil(totalItems / pageSize);
  return json(200, {
    success: true,
    data: items,
    pagination: {
      current_page: page,
      page_size: pageSize,
      total_items: totalItems,
      total_pages: totalPages,
      has_next: page < totalPages,
      has_previous: page > 1,
    },
  });
};
