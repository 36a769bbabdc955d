import {
  FileExcelOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
  FilePptOutlined,
  FileTextOutlined,
  FileWordOutlined,
  FileZipOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

type Icon = { Icon: ComponentType<{ style?: React.CSSProperties; 'aria-hidden'?: boolean }>; color: string };

const ICONS: Record<string, Icon> = {
  pdf: { Icon: FilePdfOutlined, color: '#d4380d' },
  doc: { Icon: FileWordOutlined, color: '#1d39c4' },
  docx: { Icon: FileWordOutlined, color: '#1d39c4' },
  xls: { Icon: FileExcelOutlined, color: '#389e0d' },
  xlsx: { Icon: FileExcelOutlined, color: '#389e0d' },
  csv: { Icon: FileExcelOutlined, color: '#389e0d' },
  ppt: { Icon: FilePptOutlined, color: '#d46b08' },
  pptx: { Icon: FilePptOutlined, color: '#d46b08' },
  png: { Icon: FileImageOutlined, color: '#08979c' },
  jpg: { Icon: FileImageOutlined, color: '#08979c' },
  jpeg: { Icon: FileImageOutlined, color: '#08979c' },
  gif: { Icon: FileImageOutlined, color: '#08979c' },
  webp: { Icon: FileImageOutlined, color: '#08979c' },
  zip: { Icon: FileZipOutlined, color: '#7c3aed' },
  txt: { Icon: FileTextOutlined, color: '#595959' },
};

/** The icon of a file type (by suffix, with or without dot). */
export function FileTypeIcon({ suffix }: { suffix: string | null }) {
  const { Icon, color } = ICONS[(suffix ?? '').replace(/^\./, '').toLowerCase()] ?? {
    Icon: FileOutlined,
    color: '#8c8c8c',
  };
  return <Icon style={{ color, fontSize: 16 }} aria-hidden />;
}
