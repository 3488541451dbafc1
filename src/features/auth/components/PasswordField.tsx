import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useId, useState } from 'react';

/**
 * A password input whose show/hide toggle is a labelled, keyboard-reachable button, and whose
 * error is announced (Mantine's PasswordInput leaves aria-invalid/aria-describedby off the input).
 */
export function PasswordField(props: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  const generatedId = useId();
  const id = props.id ?? generatedId;
  const hasError = Boolean(props.error);
  return (
    <PasswordInput
      {...props}
      id={id}
      aria-invalid={hasError || undefined}
      aria-describedby={hasError ? `${id}-error` : undefined}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleFocusable
      // A fixed name with aria-pressed (the toggle-button pattern). It must not contain the word
      // 'password', or label lookups for the field itself ('Password') would find two elements.
      visibilityToggleButtonProps={{ 'aria-label': 'Show characters', 'aria-pressed': visible }}
    />
  );
}
