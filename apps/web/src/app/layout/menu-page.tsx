import { ExportOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { MenuRoute } from '../../platform/views/menu-routes.ts';
import type { ViewKey } from '../view-keys.ts';
import { VIEWS } from '../views.ts';
import { IframePage } from './iframe-page.tsx';

/** The page behind a menu: its registered view, an embedded link, or an external link to open. */
export function MenuPage({ route }: { route: MenuRoute }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (route.isIframe && route.link) {
    return <IframePage link={route.link} title={route.title} />;
  }
  const View = route.viewKey ? VIEWS[route.viewKey as ViewKey] : undefined;
  if (View) return <View />;
  if (route.link) {
    return (
      <Result
        icon={<ExportOutlined />}
        title={route.title}
        extra={
          <Button type="primary" href={route.link} target="_blank" rel="noreferrer">
            {t('layout.openLink')}
          </Button>
        }
      />
    );
  }
  return (
    <Result
      status="404"
      title={route.title}
      subTitle={t('layout.pageMissing')}
      extra={
        <Button type="primary" onClick={() => navigate('/dashboard')}>
          {t('common.backHome')}
        </Button>
      }
    />
  );
}

/** A page of the shell named by its view key (the static pages: home, about, user centre …). */
export function ViewByKey({ viewKey }: { viewKey: ViewKey }) {
  const View = VIEWS[viewKey];
  return <View />;
}
