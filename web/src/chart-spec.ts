// The shape of an answer's `chart` as the widget reads it: a Vega-Lite v5 spec of one of the
// kinds the service chooses (line, bar, point), two fields, values inline. No DOM here: the
// client and the storage use the type too.

export interface ChartField {
  field: string;
  type: 'temporal' | 'ordinal' | 'quantitative' | 'nominal';
  title?: string;
}

export interface ChartSpec {
  title?: string;
  description?: string;
  data: { values: Record<string, unknown>[] };
  mark: { type: 'line' | 'bar' | 'point' } | 'line' | 'bar' | 'point';
  encoding: { x: ChartField; y: ChartField };
}
