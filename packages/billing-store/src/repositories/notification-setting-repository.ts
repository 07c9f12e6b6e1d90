/**
 * @module
 * Notification destinations: a document table with `active` and `traffic_source` promoted for
 * the list filters and for the fan-out, which reads each scope's active destinations.
 */
import type {
  NotificationSetting,
  NotificationSettingColumn,
  NotificationSettingRepository,
  Scope,
} from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';
import { DocumentCollection, type DocumentTableSpec } from './document-collection.js';

export const notificationSettingsTable: DocumentTableSpec<NotificationSetting, NotificationSettingColumn> = {
  table: 'notification_settings',
  columns: {
    active: (setting) => String(setting.active),
    traffic_source: (setting) => setting.trafficSource,
  },
};

export class SqlNotificationSettingRepository
  extends DocumentCollection<NotificationSetting, NotificationSettingColumn>
  implements NotificationSettingRepository
{
  constructor(private readonly sql: SqlExecutor) {
    super(sql, notificationSettingsTable);
  }

  async delete(scope: Scope, id: string): Promise<boolean> {
    const deleted = await this.sql.run(
      'delete from notification_settings where account_id = ? and environment = ? and id = ?',
      [scope.accountId, scope.environment, id],
    );
    return deleted > 0;
  }
}
