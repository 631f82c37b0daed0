import type { BulkImportPreview, BulkImportRequest } from '@allot/domain/users';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/user/bulk/preview: what the import would add and skip, and the seats it takes. Writes nothing. */
export function previewUserImport(input: BulkImportRequest): Promise<BulkImportPreview> {
  return api.post<BulkImportPreview>('/user/bulk/preview', input);
}

export function usePreviewUserImport() {
  return useMutation({ mutationFn: previewUserImport });
}
