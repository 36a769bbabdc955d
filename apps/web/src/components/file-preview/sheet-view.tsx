import { Empty, Tabs, Typography, theme } from 'antd';
import { type CSSProperties, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_COLUMNS, MAX_ROWS, type SheetModel } from './sheet-model.ts';

type Span = { rowSpan: number; colSpan: number };

/** Anchor cells of merged areas with their spans, and the cells they cover (not drawn). */
function spansOf(sheet: SheetModel): { anchors: Map<string, Span>; covered: Set<string> } {
  const anchors = new Map<string, Span>();
  const covered = new Set<string>();
  for (const merge of sheet.merges) {
    anchors.set(`${merge.row}:${merge.col}`, { rowSpan: merge.rows, colSpan: merge.cols });
    for (let r = merge.row; r < merge.row + merge.rows; r++) {
      for (let c = merge.col; c < merge.col + merge.cols; c++) {
        if (r !== merge.row || c !== merge.col) covered.add(`${r}:${c}`);
      }
    }
  }
  return { anchors, covered };
}

function Grid({ sheet }: { sheet: SheetModel }) {
  const { token } = theme.useToken();
  const { t } = useTranslation();
  const { anchors, covered } = useMemo(() => spansOf(sheet), [sheet]);
  const numeric = useMemo(() => new Set(sheet.numeric), [sheet]);
  if (sheet.rows.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('filePreview.emptySheet')} />;
  }
  const border = `1px solid ${token.colorBorderSecondary}`;
  const head: CSSProperties = {
    position: 'sticky',
    background: token.colorBgLayout,
    color: token.colorTextSecondary,
    fontWeight: 400,
    textAlign: 'center',
    borderRight: border,
    borderBottom: border,
    padding: '4px 8px',
    zIndex: 1,
  };
  const cell: CSSProperties = {
    borderRight: border,
    borderBottom: border,
    padding: '4px 8px',
    whiteSpace: 'pre-wrap',
    minWidth: 64,
    maxWidth: 360,
    verticalAlign: 'top',
    background: token.colorBgContainer,
  };
  return (
    <div style={{ flex: 1, minHeight: 0, overflow: 'auto' }} data-testid="file-preview-sheet-grid">
      <table
        style={{
          borderCollapse: 'separate',
          borderSpacing: 0,
          borderTop: border,
          borderLeft: border,
          fontSize: token.fontSize,
        }}
      >
        <thead>
          <tr>
            <th style={{ ...head, top: 0, left: 0, zIndex: 3, minWidth: 44 }} aria-hidden />
            {sheet.letters.map((letter) => (
              <th key={letter} scope="col" style={{ ...head, top: 0, zIndex: 2 }}>
                {letter}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sheet.rows.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions of the sheet.
            <tr key={r}>
              <th scope="row" style={{ ...head, left: 0 }}>
                {r + 1}
              </th>
              {row.map((text, c) => {
                const key = `${r}:${c}`;
                if (covered.has(key)) return null;
                const span = anchors.get(key);
                return (
                  <td
                    key={key}
                    style={numeric.has(key) ? { ...cell, textAlign: 'right' } : cell}
                    rowSpan={span?.rowSpan}
                    colSpan={span?.colSpan}
                  >
                    {text}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A workbook as sheet tabs over a scrollable grid with row numbers and column letters. */
export function SheetView({ sheets }: { sheets: SheetModel[] }) {
  const { t } = useTranslation();
  const [active, setActive] = useState('0');
  const sheet = sheets[Number(active)] ?? sheets[0];
  return (
    <div
      style={{ display: 'flex', flexDirection: 'column', height: '100%' }}
      data-testid="file-preview-sheet"
    >
      {sheet && <Grid key={active} sheet={sheet} />}
      {sheet?.clipped && (
        <Typography.Text type="secondary" style={{ fontSize: 12, paddingTop: 4 }}>
          {t('filePreview.clipped', { rows: MAX_ROWS, columns: MAX_COLUMNS })}
        </Typography.Text>
      )}
      <Tabs
        size="small"
        tabPlacement="bottom"
        activeKey={active}
        onChange={setActive}
        items={sheets.map((s, i) => ({ key: String(i), label: s.name }))}
        style={{ flex: 'none' }}
        data-testid="file-preview-sheet-tabs"
      />
    </div>
  );
}
