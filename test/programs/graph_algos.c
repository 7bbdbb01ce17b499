/* Graph algorithms on a fixed 12-vertex weighted graph: BFS distances with an array
   queue, iterative DFS with an explicit stack, O(V^2) Dijkstra, Floyd-Warshall,
   topological sort of a DAG (Kahn), and connected components by union-find. */
#include <stdio.h>

#define V 12
#define INF 1000000

static int w[V][V];

static void add_edge(int a, int b, int c) { w[a][b] = c; w[b][a] = c; }

static void bfs(int src, int *dist) {
  int q[V], head = 0, tail = 0;
  for (int i = 0; i < V; i++) dist[i] = -1;
  dist[src] = 0; q[tail++] = src;
  while (head < tail) {
    int u = q[head++];
    for (int v = 0; v < V; v++) if (w[u][v] && dist[v] < 0) { dist[v] = dist[u] + 1; q[tail++] = v; }
  }
}

static int dfs_order(int src, int *order) {
  int stack[V * V], sp = 0, n = 0, seen[V] = {0};
  stack[sp++] = src;
  while (sp) {
    int u = stack[--sp];
    if (seen[u]) continue;
    seen[u] = 1; order[n++] = u;
    for (int v = V - 1; v >= 0; v--) if (w[u][v] && !seen[v]) stack[sp++] = v;
  }
  return n;
}

static void dijkstra(int src, int *d) {
  int done[V] = {0};
  for (int i = 0; i < V; i++) d[i] = INF;
  d[src] = 0;
  for (int it = 0; it < V; it++) {
    int u = -1;
    for (int i = 0; i < V; i++) if (!done[i] && (u < 0 || d[i] < d[u])) u = i;
    if (d[u] == INF) break;
    done[u] = 1;
    for (int v = 0; v < V; v++) if (w[u][v] && d[u] + w[u][v] < d[v]) d[v] = d[u] + w[u][v];
  }
}

static int parent[V];
static int find(int x) { while (parent[x] != x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; }

int main(void) {
  int edges[][3] = {{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 5}, {2, 3, 8}, {3, 4, 3}, {4, 5, 1}, {5, 6, 2}, {6, 3, 7}, {7, 8, 1}, {8, 9, 6}, {10, 11, 2}};
  for (int i = 0; i < 12; i++) add_edge(edges[i][0], edges[i][1], edges[i][2]);
  int dist[V], order[V];
  bfs(0, dist);
  printf("bfs:");
  for (int i = 0; i < V; i++) printf(" %d", dist[i]);
  int n = dfs_order(0, order);
  printf("\ndfs(%d):", n);
  for (int i = 0; i < n; i++) printf(" %d", order[i]);
  int d[V];
  dijkstra(0, d);
  printf("\ndijkstra:");
  for (int i = 0; i < V; i++) { if (d[i] == INF) printf(" inf"); else printf(" %d", d[i]); }
  static int fw[V][V];
  for (int i = 0; i < V; i++) for (int j = 0; j < V; j++) fw[i][j] = i == j ? 0 : w[i][j] ? w[i][j] : INF;
  for (int k = 0; k < V; k++) for (int i = 0; i < V; i++) for (int j = 0; j < V; j++) if (fw[i][k] + fw[k][j] < fw[i][j]) fw[i][j] = fw[i][k] + fw[k][j];
  long long sum = 0;
  for (int i = 0; i < V; i++) for (int j = 0; j < V; j++) if (fw[i][j] < INF) sum += fw[i][j];
  printf("\nfloyd sum=%lld agree=%d\n", sum, fw[0][6] == d[6]);
  int dag[8][8] = {{0}};
  int de[][2] = {{0, 3}, {1, 3}, {1, 4}, {2, 4}, {3, 5}, {4, 5}, {5, 6}, {2, 7}, {7, 6}};
  int indeg[8] = {0};
  for (int i = 0; i < 9; i++) { dag[de[i][0]][de[i][1]] = 1; indeg[de[i][1]]++; }
  int q[8], h = 0, t = 0;
  for (int i = 0; i < 8; i++) if (!indeg[i]) q[t++] = i;
  printf("topo:");
  while (h < t) { int u = q[h++]; printf(" %d", u); for (int v = 0; v < 8; v++) if (dag[u][v] && --indeg[v] == 0) q[t++] = v; }
  for (int i = 0; i < V; i++) parent[i] = i;
  for (int i = 0; i < 12; i++) parent[find(edges[i][0])] = find(edges[i][1]);
  int comps = 0;
  for (int i = 0; i < V; i++) comps += find(i) == i;
  printf("\ncomponents=%d\n", comps);
  return (int)(sum % 256);
}
