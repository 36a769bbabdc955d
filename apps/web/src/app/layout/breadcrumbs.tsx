import { HomeOutlined } from '@ant-design/icons';
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PageInfo } from '../route-table.ts';
import styles from './layout.module.css';

export function Breadcrumbs({ page, inHeader = false }: { page: PageInfo | undefined; inHeader?: boolean }) {
  const { t } = useTranslation();
  const trail = (page?.crumbs ?? []).filter((crumb) => crumb.path !== '/dashboard');
  const items = [
    {
      key: 'home',
      title: (
        <Link to="/dashboard">
          <HomeOutlined /> <span>{t('routes.home')}</span>
        </Link>
      ),
    },
    ...trail.map((crumb, index) => ({
      key: `${crumb.path}:${index}`,
      title: crumb.title,
    })),
  ];
  return (
    <Breadcrumb
      className={inHeader ? undefined : styles.breadcrumb}
      style={inHeader ? { lineHeight: 'normal' } : undefined}
      items={items}
      data-testid="breadcrumbs"
    />
  );
}
