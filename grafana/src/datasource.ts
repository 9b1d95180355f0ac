/**
 * The one Prometheus data source every panel, variable and annotation names. Its uid is fixed in
 * grafana/provisioning/datasources/prometheus.yaml, so the dashboards work as provisioned; when
 * importing them by hand into another Grafana, give its Prometheus data source this uid (or edit it
 * here and regenerate).
 */
import type { DataSourceRef } from './grafana-json.js';

export const DATASOURCE_UID = 'loadlab-prometheus';
export const DATASOURCE: DataSourceRef = { type: 'prometheus', uid: DATASOURCE_UID };
