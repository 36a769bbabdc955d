import { type OrgNode, orgAddInputSchema } from '@shuzhi/contracts/org';
import { Col, Form, type FormInstance, Input, InputNumber, Modal, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DictSelect } from '../../components/dict/dict-select.tsx';
import { OrgTreeSelect } from '../../components/org-tree/org-tree-select.tsx';
import type { Editing, FormValues } from './use-org-actions.ts';

/** The tree without `id`'s subtree: an org cannot move under itself (the server answers D2002 too). */
function without(nodes: readonly OrgNode[], id: number): OrgNode[] {
  return nodes.filter((n) => n.id !== id).map((n) => ({ ...n, children: without(n.children, id) }));
}

/** 新增 / 编辑 an org: its parent (not under itself), name, code, type, region code, order and remark. */
export function OrgFormModal({
  form,
  editing,
  saving,
  tree,
  onCancel,
  onSave,
}: {
  form: FormInstance<FormValues>;
  editing: Editing | null;
  saving: boolean;
  /** The visible org tree (the parents to choose from). */
  tree: readonly OrgNode[] | undefined;
  onCancel: () => void;
  onSave: () => void;
}) {
  const { t } = useTranslation();
  const editingId = editing?.mode === 'edit' ? editing.record.id : null;
  const parentNodes = useMemo(
    () => (editingId === null ? tree : without(tree ?? [], editingId)),
    [tree, editingId],
  );
  const mayAddRoot = (tree ?? []).every((n) => !n.outOfScope);
  return (
    <Modal
      open={editing !== null}
      title={
        editing?.mode === 'edit'
          ? t('crud.editTitle', { name: t('sysOrg.entity') })
          : t('crud.addTitle', { name: t('sysOrg.entity') })
      }
      width={720}
      onCancel={onCancel}
      onOk={onSave}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      forceRender
      data-testid="org-form-modal"
    >
      <Form form={form} layout="vertical" preserve={false} requiredMark>
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item
              name="pid"
              label={t('sysOrg.parent')}
              extra={mayAddRoot ? t('sysOrg.parentHelp') : undefined}
              // Only who sees the whole tenant may add a top-level org (the server answers D2003).
              rules={
                mayAddRoot
                  ? []
                  : [{ required: true, message: t('crud.requiredSelect', { label: t('sysOrg.parent') }) }]
              }
            >
              <OrgTreeSelect nodes={parentNodes} data-testid="org-field-pid" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="name"
              label={t('sysOrg.name')}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t('crud.required', { label: t('sysOrg.name') }),
                },
              ]}
            >
              <Input allowClear maxLength={64} data-testid="org-field-name" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="code"
              label={t('sysOrg.code')}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t('crud.required', { label: t('sysOrg.code') }),
                },
                {
                  validator: (_: unknown, value: unknown) =>
                    !value || orgAddInputSchema.shape.code.safeParse(value).success
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('sysOrg.codeRule'))),
                },
              ]}
            >
              <Input allowClear maxLength={64} data-testid="org-field-code" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="type"
              label={t('sysOrg.type')}
              rules={[{ required: true, message: t('crud.requiredSelect', { label: t('sysOrg.type') }) }]}
            >
              <DictSelect code="org_type" data-testid="org-field-type" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="regionCode"
              label={t('sysOrg.regionCode')}
              rules={[{ pattern: /^[0-9]*$/, message: t('sysOrg.regionCodeRule') }]}
            >
              <Input allowClear maxLength={32} data-testid="org-field-region" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="orderNo" label={t('sysOrg.orderNo')} initialValue={100}>
              <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="remark" label={t('sysOrg.remark')}>
              <Input.TextArea rows={2} maxLength={256} showCount />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
