import type { WatermarkConfig } from '@shuzhi/contracts/auth';
import { useQuery } from '@tanstack/react-query';
import { useProfile } from '../profile/profile.ts';
import { sessionApi } from '../session/session.api.ts';

function truthy(value: unknown): boolean {
  return value === true || value === 'true' || value === 1 || value === '1';
}

/**
 * Watermark and copy-paste settings (SPEC §6), read in one place. The watermark comes from
 * watermarkConfig; sys_paste_copy from the client config list, falling back to a flag on the profile or
 * the watermark answer when the list is not readable.
 */
export function useSecurityConfig(enabled: boolean) {
  const profile = useProfile();
  const watermark = useQuery({
    queryKey: ['sysAuth', 'watermarkConfig'],
    queryFn: sessionApi.watermarkConfig,
    enabled,
    staleTime: 5 * 60_000,
  });
  const clientConfig = useQuery({
    queryKey: ['sysConfig', 'clientList'],
    queryFn: sessionApi.clientConfig,
    enabled,
    staleTime: 5 * 60_000,
  });

  const fromList = clientConfig.data?.find((item) => item.code === 'sys_paste_copy')?.value;
  const fallback =
    (profile.data as Record<string, unknown> | undefined)?.sysPasteCopy ??
    (watermark.data as (WatermarkConfig & { pasteCopy?: unknown }) | undefined)?.pasteCopy;
  const strongPassword = truthy(
    clientConfig.data?.find((item) => item.code === 'sys_password_strong')?.value,
  );

  return {
    watermark: watermark.data?.enabled ? watermark.data : null,
    pasteCopyBlocked: truthy(fromList ?? fallback),
    strongPassword,
  };
}
