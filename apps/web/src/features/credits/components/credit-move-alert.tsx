import { MSG } from '@allot/domain/messages';
import { Text } from '@mantine/core';
import { FormAlert } from '../../../components/form-alert';

/** A move the server refused (spec §8): 'Unsuccessful', what did not happen, and the server's reason. */
export function CreditMoveAlert({ reclaim = false, message }: { reclaim?: boolean; message: string }) {
  return (
    <FormAlert title={MSG.unsuccessful}>
      <Text size="sm" inherit>
        <Text span fw={600} inherit>
          {reclaim ? MSG.creditsNotReclaimed : MSG.creditsNotSent}
        </Text>
        : {message}
      </Text>
    </FormAlert>
  );
}
