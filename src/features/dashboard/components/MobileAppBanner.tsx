import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconBrandAndroid, IconBrandApple, IconDeviceMobile } from '@tabler/icons-react';
import { ClosableBanner } from '@/components/ClosableBanner';
import { MOBILE_APP_ANDROID_URL, MOBILE_APP_IOS_URL } from '../model/mobileApp';

/** Under this id the dismissal is remembered on this device (Dexie closedElements). */
export const MOBILE_APP_BANNER_ID = 'dashboard-mobile-app';

/**
 * The closable footer inviting users to the mobile capture app for iOS and Android (spec 000 §1
 * and §2 Dashboard); once closed it stays closed on this device.
 */
export function MobileAppBanner() {
  return (
    <ClosableBanner
      id={MOBILE_APP_BANNER_ID}
      label="Mobile app"
      closeLabel="Dismiss the mobile app invitation"
    >
      <Group gap="md" wrap="nowrap" align="flex-start">
        <IconDeviceMobile size={32} stroke={1.4} aria-hidden style={{ flexShrink: 0 }} />
        <Stack gap={4}>
          <Text fw={700} size="sm">
            Collect data in the field with the mobile app
          </Text>
          <Text size="sm">
            Download the mobile capture app for iOS and Android and take your projects into the
            field.
          </Text>
          <Group gap="lg" mt={4}>
            <Anchor href={MOBILE_APP_IOS_URL} target="_blank" rel="noopener noreferrer" size="sm">
              <Group gap={4} component="span" wrap="nowrap">
                <IconBrandApple size={16} aria-hidden />
                App Store
              </Group>
            </Anchor>
            <Anchor
              href={MOBILE_APP_ANDROID_URL}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
            >
              <Group gap={4} component="span" wrap="nowrap">
                <IconBrandAndroid size={16} aria-hidden />
                Google Play
              </Group>
            </Anchor>
          </Group>
        </Stack>
      </Group>
    </ClosableBanner>
  );
}
