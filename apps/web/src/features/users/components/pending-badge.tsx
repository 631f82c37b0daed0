import { Badge } from '@mantine/core';

/**
 * "Invitation pending" beside a person's name. Whole on a phone (issue 33): the label wraps in a narrow column
 * instead of ending in "INVIT…".
 */
export function PendingBadge() {
  return (
    <Badge
      variant="outline"
      color="orange.9"
      radius="sm"
      size="sm"
      style={{ flexShrink: 0, height: 'auto', paddingBlock: 2 }}
      styles={{
        label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.25 },
      }}
    >
      Invitation pending
    </Badge>
  );
}
