import { MENU_TYPE, menuAddInputSchema } from '@shuzhi/contracts/menu';
import { ALL_PERMISSIONS } from '@shuzhi/contracts/permissions';
import {
  Col,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Switch,
  TreeSelect,
} from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { IconPicker } from './icon-picker.tsx';
import type { MenuNode, MenuRow } from './menu.api.ts';

export type MenuFormValues = {
  type: number;
  pid: number;
  title: string;
  name: string;
  path?: string | null;
  component?: string | null;
  redirect?: string | null;
  permission?: string | null;
  icon?: string | null;
  outLink?: string | null;
  isIframe: boolean;
  isHide: boolean;
  isKeepAlive: boolean;
  isAffix: boolean;
  orderNo: number;
  remark?: string | null;
};

export type MenuEditing =
  | { mode: 'add'; parent: MenuNode | null; key: number }
  | { mode: 'edit'; record: MenuRow; key: number };

const PERMISSION_OPTIONS = ALL_PERMISSIONS.map((p) => ({ value: p, label: p }));

type ParentOption = { value: number; title: string; disabled?: boolean; children?: ParentOption[] };

/** Parents a node of `type` may sit under; the node itself and what lies below it are not offered. */
function parentOptions(nodes: readonly MenuNode[], type: number, selfId: number | null): ParentOption[] {
  const wanted = type === MENU_TYPE.button ? MENU_TYPE.menu : MENU_TYPE.dir;
  const walk = (list: readonly MenuNode[]): ParentOption[] =>
    list
      .filter((n) => n.type !== MENU_TYPE.button && n.id !== selfId)
      .map((n) => ({
        value: n.id,
        title: n.meta.title,
        disabled: n.type !== wanted,
        children: walk(n.children),
      }));
  return walk(nodes);
}

export function toFormValues(editing: MenuEditing): Partial<MenuFormValues> {
  if (editing.mode === 'edit') {
    const r = editing.record;
    return {
      type: r.type,
      pid: r.pid,
      title: r.title,
      name: r.name,
      path: r.path,
      component: r.component,
      redirect: r.redirect,
      permission: r.permission,
      icon: r.icon,
      outLink: r.outLink,
      isIframe: r.isIframe === 1,
      isHide: r.isHide === 1,
      isKeepAlive: r.isKeepAlive === 1,
      isAffix: r.isAffix === 1,
      orderNo: r.orderNo,
      remark: r.remark,
    };
  }
  const parent = editing.parent;
  const type =
    parent === null ? MENU_TYPE.dir : parent.type === MENU_TYPE.menu ? MENU_TYPE.button : MENU_TYPE.menu;
  return {
    type,
    pid: parent?.id ?? 0,
    isIframe: false,
    isHide: false,
    isKeepAlive: true,
    isAffix: false,
    orderNo: 100,
    ...(type === MENU_TYPE.dir ? { component: 'Layout' } : {}),
  };
}

/** The add / edit dialog of one node: type, parent, route fields, permission (buttons), icon and page flags. */
export function MenuFormModal({
  editing,
  tree,
  saving,
  onCancel,
  onSubmit,
  form,
}: {
  editing: MenuEditing | null;
  tree: readonly MenuNode[];
  saving: boolean;
  onCancel(): void;
  onSubmit(values: MenuFormValues): void;
  form: FormInstance<MenuFormValues>;
}) {
  const { t } = useTranslation();
  const type = Form.useWatch('type', form) ?? MENU_TYPE.dir;
  const selfId = editing?.mode === 'edit' ? editing.record.id : null;
  const parents = useMemo(
    () => [
      {
        value: 0,
        title: t('sysMenu.root'),
        disabled: type === MENU_TYPE.button,
        children: parentOptions(tree, type, selfId),
      },
    ],
    [tree, type, selfId, t],
  );
  // Each opening starts from the record (or the defaults of a new child), not from the last dialog's input.
  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(toFormValues(editing));
  }, [editing, form]);
  const isButton = type === MENU_TYPE.button;
  const isDir = type === MENU_TYPE.dir;
  const required = (label: string) => ({
    required: true,
    whitespace: true,
    message: t('crud.required', { label }),
  });
  const title =
    editing?.mode === 'edit'
      ? t('crud.editTitle', { name: t('sysMenu.entity') })
      : t('crud.addTitle', { name: t('sysMenu.entity') });

  return (
    <Modal
      open={editing !== null}
      title={title}
      width={760}
      onCancel={onCancel}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      forceRender
      okButtonProps={{ 'data-testid': 'menu-form-save' }}
      data-testid="menu-form"
    >
      <Form<MenuFormValues>
        form={form}
        layout="vertical"
        onFinish={onSubmit}
        onValuesChange={(changed: Partial<MenuFormValues>, all) => {
          // A button is named by its permission unless the admin typed another name.
          if (changed.permission && (!all.name || ALL_PERMISSIONS.includes(all.name as never))) {
            form.setFieldValue('name', changed.permission);
          }
          if (changed.type === MENU_TYPE.dir && !all.component) form.setFieldValue('component', 'Layout');
          if (changed.type !== undefined && changed.type !== MENU_TYPE.dir && all.component === 'Layout') {
            form.setFieldValue('component', null);
          }
        }}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="type" label={t('sysMenu.type')} rules={[{ required: true }]}>
              <Radio.Group optionType="button" buttonStyle="solid" data-testid="menu-field-type">
                <Radio value={MENU_TYPE.dir}>{t('sysMenu.types.1')}</Radio>
                <Radio value={MENU_TYPE.menu}>{t('sysMenu.types.2')}</Radio>
                <Radio value={MENU_TYPE.button}>{t('sysMenu.types.3')}</Radio>
              </Radio.Group>
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="pid"
              label={t('sysMenu.parent')}
              rules={[{ required: true, message: t('crud.requiredSelect', { label: t('sysMenu.parent') }) }]}
            >
              <TreeSelect
                treeData={parents}
                treeDefaultExpandedKeys={[0]}
                showSearch={{ treeNodeFilterProp: 'title' }}
                placeholder={t('crud.selectPlaceholder', { label: t('sysMenu.parent') })}
                data-testid="menu-field-pid"
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="title" label={t('sysMenu.menuTitle')} rules={[required(t('sysMenu.menuTitle'))]}>
              <Input
                allowClear
                maxLength={64}
                placeholder={t('crud.inputPlaceholder', { label: t('sysMenu.menuTitle') })}
                data-testid="menu-field-title"
              />
            </Form.Item>
          </Col>
          {isButton ? (
            <Col span={12}>
              <Form.Item
                name="permission"
                label={t('sysMenu.permission')}
                tooltip={t('sysMenu.permissionHint')}
                rules={[
                  { required: true, message: t('crud.requiredSelect', { label: t('sysMenu.permission') }) },
                ]}
              >
                <Select
                  showSearch={{ optionFilterProp: 'value' }}
                  options={PERMISSION_OPTIONS}
                  placeholder={t('crud.selectPlaceholder', { label: t('sysMenu.permission') })}
                  data-testid="menu-field-permission"
                />
              </Form.Item>
            </Col>
          ) : (
            <Col span={12}>
              <Form.Item name="icon" label={t('sysMenu.icon')}>
                <IconPicker placeholder={t('sysMenu.iconPlaceholder')} data-testid="menu-field-icon" />
              </Form.Item>
            </Col>
          )}
          <Col span={12}>
            <Form.Item
              name="name"
              label={t('sysMenu.name')}
              tooltip={t('sysMenu.nameHint')}
              rules={[
                required(t('sysMenu.name')),
                {
                  validator: (_, value: unknown) =>
                    !value || menuAddInputSchema.shape.name.safeParse(value).success
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('sysMenu.nameRule'))),
                },
              ]}
            >
              <Input
                allowClear
                maxLength={64}
                placeholder={t('crud.inputPlaceholder', { label: t('sysMenu.name') })}
                data-testid="menu-field-name"
              />
            </Form.Item>
          </Col>
          {isButton ? null : (
            <>
              <Col span={12}>
                <Form.Item name="path" label={t('sysMenu.path')}>
                  <Input
                    allowClear
                    maxLength={256}
                    placeholder={t('crud.inputPlaceholder', { label: t('sysMenu.path') })}
                    data-testid="menu-field-path"
                  />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="component"
                  label={t('sysMenu.component')}
                  tooltip={t('sysMenu.componentHint')}
                >
                  <Input
                    allowClear
                    maxLength={256}
                    placeholder={t('crud.inputPlaceholder', { label: t('sysMenu.component') })}
                    data-testid="menu-field-component"
                  />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="redirect" label={t('sysMenu.redirect')}>
                  <Input
                    allowClear
                    maxLength={256}
                    placeholder={t('crud.inputPlaceholder', { label: t('sysMenu.redirect') })}
                  />
                </Form.Item>
              </Col>
              {isDir ? null : (
                <Col span={12}>
                  <Form.Item name="outLink" label={t('sysMenu.outLink')}>
                    <Input
                      allowClear
                      maxLength={512}
                      placeholder={t('crud.inputPlaceholder', { label: t('sysMenu.outLink') })}
                    />
                  </Form.Item>
                </Col>
              )}
            </>
          )}
          <Col span={isButton ? 12 : 6}>
            <Form.Item name="orderNo" label={t('sysMenu.orderNo')}>
              <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          {isButton ? null : (
            <Col span={isDir ? 18 : 24}>
              <Row gutter={16}>
                {(isDir
                  ? (['isHide'] as const)
                  : (['isHide', 'isKeepAlive', 'isAffix', 'isIframe'] as const)
                ).map((flag) => (
                  <Col key={flag} span={6}>
                    <Form.Item name={flag} label={t(`sysMenu.${flag}`)} valuePropName="checked">
                      <Switch
                        checkedChildren={t('sysMenu.yes')}
                        unCheckedChildren={t('sysMenu.no')}
                        data-testid={`menu-field-${flag}`}
                      />
                    </Form.Item>
                  </Col>
                ))}
              </Row>
            </Col>
          )}
          <Col span={24}>
            <Form.Item name="remark" label={t('sysMenu.remark')}>
              <Input.TextArea rows={2} maxLength={256} showCount />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
