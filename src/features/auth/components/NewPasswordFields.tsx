/**
 * The new password with the password rule beside its label, and its confirmation (changing
 * the password signed in, or by the emailed link).
 */
import { Box } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { PasswordField } from './PasswordField';
import { PasswordRuleHint } from './PasswordRuleHint';

interface NewPasswordFieldsProps {
  /** The spec's label of the first field ('New password', or 'New Password' on the link's page). */
  label: string;
  password: GetInputPropsReturnType;
  confirm: GetInputPropsReturnType;
  autoFocus?: boolean;
}

export function NewPasswordFields({ label, password, confirm, autoFocus }: NewPasswordFieldsProps) {
  return (
    <>
      <Box pos="relative">
        <PasswordField
          label={label}
          autoComplete="new-password"
          data-autofocus={autoFocus || undefined}
          {...password}
        />
        {/* Beside the label, not inside it, so the field's accessible name stays the label. */}
        <Box pos="absolute" top={0} right={0}>
          <PasswordRuleHint />
        </Box>
      </Box>
      <PasswordField label="Confirm password" autoComplete="new-password" {...confirm} />
    </>
  );
}
