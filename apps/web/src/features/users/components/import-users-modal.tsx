import { MSG } from '@allot/domain/messages';
import type { Organization } from '@allot/domain/organizations';
import {
  type BulkImportPreview,
  type BulkImportResponse,
  bulkImportResponseSchema,
  type ImportRow,
} from '@allot/domain/users';
import { Modal } from '@mantine/core';
import { useState } from 'react';
import { errorText, isApiError } from '../../../lib/api-error';
import { useOrganizationPermissions } from '../../organizations/hooks/use-organization-permissions';
import { useImportUsers } from '../api/import-users';
import { usePreviewUserImport } from '../api/preview-user-import';
import { parseUserCsv } from '../csv/parse-user-csv';
import { ImportFileStep } from './import-file-step';
import { ImportPreviewStep } from './import-preview-step';
import { ImportResultStep } from './import-result-step';

type Step =
  | { name: 'file'; checking: string | null; error: string | null }
  | {
      name: 'preview';
      fileName: string;
      rows: ImportRow[];
      notes: string[];
      preview: BulkImportPreview;
      error: string | null;
    }
  | { name: 'result'; rows: ImportRow[]; result: BulkImportResponse; limitReached: boolean };

const FIRST: Step = { name: 'file', checking: null, error: null };

interface ImportUsersModalProps {
  opened: boolean;
  onClose: () => void;
  organization: Organization;
}

/**
 * "Import CSV": read the file in the browser, show the server's preview (POST /api/user/bulk/preview),
 * and only then import (POST /api/user/bulk) and show who was added and who was skipped.
 */
export function ImportUsersModal({ opened, onClose, organization }: ImportUsersModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Import users into ${organization.name}`}
      size="xl"
      centered
    >
      {opened && <ImportUsersFlow organization={organization} onClose={onClose} />}
    </Modal>
  );
}

function ImportUsersFlow({ organization, onClose }: { organization: Organization; onClose: () => void }) {
  const organizationId = organization.id;
  // Seats are bought on the Licenses screen ('Add more'): manage_org_license.
  const canBuySeats = useOrganizationPermissions(organization).can('manage_org_license');
  const preview = usePreviewUserImport();
  const importUsers = useImportUsers();
  const [step, setStep] = useState<Step>(FIRST);

  async function check(file: File) {
    setStep({ name: 'file', checking: file.name, error: null });
    let text: string;
    try {
      text = await file.text();
    } catch {
      setStep({ name: 'file', checking: null, error: `${file.name} could not be read.` });
      return;
    }
    const parsed = parseUserCsv(text);
    if (!parsed.ok) {
      setStep({ name: 'file', checking: null, error: `${file.name}: ${parsed.error}` });
      return;
    }
    try {
      const answer = await preview.mutateAsync({ organizationId, users: parsed.rows });
      setStep({
        name: 'preview',
        fileName: file.name,
        rows: parsed.rows,
        notes: parsed.notes,
        preview: answer,
        error: null,
      });
    } catch (error) {
      setStep({ name: 'file', checking: null, error: errorText(error) });
    }
  }

  async function run(current: Extract<Step, { name: 'preview' }>) {
    setStep({ ...current, error: null });
    try {
      const result = await importUsers.mutateAsync({ organizationId, users: current.rows });
      setStep({ name: 'result', rows: current.rows, result, limitReached: false });
    } catch (error) {
      if (isApiError(error) && error.status === 402) {
        const partial = bulkImportResponseSchema.safeParse(error.details);
        if (partial.success) {
          setStep({ name: 'result', rows: current.rows, result: partial.data, limitReached: true });
          return;
        }
        setStep({ ...current, error: MSG.bulkLicenceLimit });
        return;
      }
      const message = isApiError(error) && error.status >= 500 ? MSG.bulkImportFailed : errorText(error);
      setStep({ ...current, error: message });
    }
  }

  if (step.name === 'result') {
    return (
      <ImportResultStep
        result={step.result}
        rows={step.rows}
        organizationId={organizationId}
        canBuySeats={canBuySeats}
        limitReached={step.limitReached}
        onDone={onClose}
      />
    );
  }
  if (step.name === 'preview') {
    return (
      <ImportPreviewStep
        fileName={step.fileName}
        rows={step.rows}
        notes={step.notes}
        preview={step.preview}
        organizationId={organizationId}
        canBuySeats={canBuySeats}
        importing={importUsers.isPending}
        error={step.error}
        onImport={() => void run(step)}
        onChooseAnother={() => setStep(FIRST)}
      />
    );
  }
  return <ImportFileStep onFile={(file) => void check(file)} checking={step.checking} error={step.error} />;
}
