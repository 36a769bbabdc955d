import { useState } from 'react';
import type { FilterDraft } from './record-filters.ts';

/** The record list's own search: keyword, status, 只看我的, and the field filters (drafted, then applied). */
export function useRecordSearch() {
  const [keywordText, setKeywordText] = useState('');
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<number | undefined>(undefined);
  const [mine, setMine] = useState(false);
  const [drafts, setDrafts] = useState<FilterDraft[]>([]);
  const [applied, setApplied] = useState<FilterDraft[]>([]);
  const [filterOpen, setFilterOpen] = useState(false);

  const clear = () => {
    setKeywordText('');
    setKeyword('');
    setStatus(undefined);
    setMine(false);
    setDrafts([]);
    setApplied([]);
  };

  return {
    keywordText,
    setKeywordText,
    keyword,
    setKeyword,
    status,
    setStatus,
    mine,
    setMine,
    drafts,
    setDrafts,
    applied,
    setApplied,
    filterOpen,
    setFilterOpen,
    clear,
  };
}

export type RecordSearch = ReturnType<typeof useRecordSearch>;
